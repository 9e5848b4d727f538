import type { TemplateField } from '../templates/index.ts';
import type { TemplateSnapshot } from './onboarding-events.ts';

/** A field with the id of the step that holds it (error details name both). */
export interface LocatedField {
  step_id: string;
  field: TemplateField;
}

export function fieldsOf(snapshot: TemplateSnapshot): LocatedField[] {
  return snapshot.steps.flatMap((step) => step.fields.map((field) => ({ step_id: step.id, field })));
}

export function findField(snapshot: TemplateSnapshot, fieldId: string): LocatedField | undefined {
  return fieldsOf(snapshot).find((located) => located.field.id === fieldId);
}

/** Required payment fields: only these take part in the send's payment checks. */
export function requiredPaymentFields(snapshot: TemplateSnapshot): LocatedField[] {
  return fieldsOf(snapshot).filter(({ field }) => field.type === 'payment' && field.is_required);
}

/** `config.amount_cents`: the builder's rule (../templates/contract/payment-amount.ts), 1 to 99,999,999 cents. */
export { validAmountCents } from '../templates/contract/payment-amount.ts';

const isSignature = (field: TemplateField) => field.type === 'signature';

/** Signature fields that still hold the builder's sample agreement (`config.is_sample_text` true). */
export function sampleAgreementFields(snapshot: TemplateSnapshot): LocatedField[] {
  return fieldsOf(snapshot).filter(
    ({ field }) => isSignature(field) && field.config['is_sample_text'] === true,
  );
}

/** Signature fields that cannot be sent: sample agreement text, or no agreement text at all. */
export function fieldsNeedingAgreementText(snapshot: TemplateSnapshot): LocatedField[] {
  return fieldsOf(snapshot).filter(({ field }) => {
    if (!isSignature(field)) return false;
    const text = field.config['agreement_text'];
    return field.config['is_sample_text'] === true || typeof text !== 'string' || text.trim() === '';
  });
}

const always = () => true;

/**
 * Every step that is shown and not optional has been submitted; a step its conditional
 * rule hides (`shown`, ../templates/contract/conditional-rules.ts) is not needed.
 */
export function requiredStepsSubmitted(
  snapshot: TemplateSnapshot,
  submitted: ReadonlySet<string>,
  shown: (stepId: string) => boolean = always,
): boolean {
  return snapshot.steps.every((step) => step.is_optional || submitted.has(step.id) || !shown(step.id));
}

/** Share of the shown steps submitted, rounded down; 100 only once complete (the caller decides). */
export function progressPct(
  snapshot: TemplateSnapshot,
  submitted: ReadonlySet<string>,
  shown: (stepId: string) => boolean = always,
): number {
  const steps = snapshot.steps.filter((step) => shown(step.id));
  if (steps.length === 0) return 0;
  const done = steps.filter((step) => submitted.has(step.id)).length;
  return Math.min(99, Math.floor((100 * done) / steps.length));
}
