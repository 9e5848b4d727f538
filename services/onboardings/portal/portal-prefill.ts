import { prefillSource } from '../../templates/contract/field-catalogue.ts';
import type { TemplateSnapshot } from '../onboarding-events.ts';
import { fieldsOf } from '../template-snapshot.ts';

/**
 * The answers a form starts from the client record (a field's config.prefill: the client's
 * name or email, docs/decisions/0092): for each such field without an answer yet, the value.
 * The form page fills them in when it opens and autosaves them like a typed answer, so the
 * client sees them, may change them, and nothing is filled over what they already answered.
 */
export function prefillAnswers(
  snapshot: TemplateSnapshot,
  answeredFieldIds: ReadonlySet<string>,
  client: { name: string; email: string } | undefined,
): Record<string, string> {
  if (!client) return {};
  const values = { client_name: client.name, client_email: client.email };
  const prefill: Record<string, string> = {};
  for (const { field } of fieldsOf(snapshot)) {
    const source = prefillSource(field);
    if (source && !answeredFieldIds.has(field.id) && values[source]) prefill[field.id] = values[source];
  }
  return prefill;
}
