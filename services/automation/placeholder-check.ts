import { codedError } from '../../shared/http/api-error.ts';
import { PLACEHOLDERS, unknownPlaceholders } from './placeholders.ts';
import type { AutomationAction } from './automation-rule-events.ts';

/** The texts of an action that may hold placeholders, by their field path in a request body. */
function placeholderTexts(action: AutomationAction): Array<[path: string, text: string]> {
  if (action.type === 'send_email')
    return [
      ['/action/subject', action.subject],
      ['/action/body', action.body],
    ];
  if (action.type === 'notify_member') return [['/action/message', action.message]];
  return [];
}

export const PLACEHOLDER_LIST = PLACEHOLDERS.map((name) => `{{${name}}}`);

/** The sentence beside a field that holds an unknown placeholder, listing the ones that exist. */
export const unknownPlaceholderText = (unknown: string[]) =>
  `${unknown.join(', ')} ${unknown.length === 1 ? 'is not a placeholder' : 'are not placeholders'}. ` +
  `Use one of: ${PLACEHOLDER_LIST.join(', ')}.`;

/**
 * Refuses an action whose texts hold a placeholder that does not exist (422
 * unknown_placeholder): without this check `{{client.name}}` reaches the client as typed.
 * details.issues names each field with its sentence and unknown placeholders;
 * details.placeholders lists the ones that exist, for the dialog to offer.
 */
export function checkPlaceholders(action: AutomationAction): void {
  const issues = placeholderTexts(action).flatMap(([path, text]) => {
    const unknown = unknownPlaceholders(text);
    return unknown.length === 0 ? [] : [{ path, message: unknownPlaceholderText(unknown), unknown }];
  });
  if (issues.length === 0) return;
  throw codedError(422, 'unknown_placeholder', issues[0]!.message, {
    details: { issues, placeholders: PLACEHOLDER_LIST },
  });
}
