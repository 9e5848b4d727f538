/**
 * The contract between the form's shell and its field components: the shell renders one
 * <Field> per field of the current step and owns the answer state, autosave, problems and
 * the ids that tie a control to its help text and error message.
 */
import type { AnswerProblem } from '../../../../templates/contract/field-catalogue.ts';
import type { Portal, PortalField, PortalOnboarding } from '../api.ts';
import type { CheckoutReturn } from '../checkout-return.ts';
import type { Formats, Translate } from '../i18n.ts';

/** A field of the template snapshot after localizeField (texts in the page's language), plus its step. */
export type LocalizedField = PortalField & { step_id: string };

export interface FieldIds {
  /** The id of the control the label points at (the first control for a group). */
  input: string;
  /** The id of the help text element (aria-describedby when there is help text). */
  help: string;
  /** The id of the error message element (aria-describedby and aria-errormessage when there is a problem). */
  error: string;
}

/** What the form hands every step and field: the onboarding, where it goes, the page's words and the team. */
export interface FormContext {
  portal: Portal;
  onboarding: PortalOnboarding;
  /** Reloads the onboarding (files, signatures, submitted steps), e.g. after an upload or a signature. */
  refresh(): Promise<void>;
  t: Translate;
  formats: Formats;
  /** The team's display name. */
  team: string;
  /** Back from Stripe Checkout: the payment field and how Checkout ended; null otherwise. */
  checkoutReturn?: CheckoutReturn | null;
}

export interface FieldProps extends FormContext {
  field: LocalizedField;
  /** The latest answer: the draft being typed, else the saved response's value; undefined when none. */
  value: unknown;
  /** A new answer: the shell autosaves it (debounced) and clears the field's problem. */
  onChange(value: unknown): void;
  /** The problem to show beside the field (client check, server refusal); null when none. */
  problem: AnswerProblem | null;
  ids: FieldIds;
  /**
   * Saves every answer typed so far now, before the page leaves (for Stripe Checkout): true once
   * all are saved, false when some wait for the network. Absent in the builder's preview.
   */
  saveAnswers?(): Promise<boolean>;
}
