import { textError } from './api-error.ts';

/*
 * The text 400s (`{ error: <text> }`) of a malformed body, for the public routes whose
 * spec names a "required" text (clients, hook subscriptions): a missing required field is
 * reported before any other problem, and an empty JSON body is a body without them.
 */

/**
 * The highest-ranked message of a failed body validation: `required` when an issue says
 * so, else the first issue's (the fields in the order of the body schema).
 */
export function firstMessage(validation: ReadonlyArray<{ message?: string }>, required: string): string {
  const messages = validation.map((issue) => issue.message ?? required);
  return messages.find((message) => message === required) ?? messages[0] ?? required;
}

/** A route's `errorHandler`: an empty JSON body answers 400 `required`; any other error goes on. */
export const emptyBodyAnswers = (required: string) => (error: unknown) => {
  if ((error as { code?: string }).code === 'FST_ERR_CTP_EMPTY_JSON_BODY') throw textError(400, required);
  throw error;
};
