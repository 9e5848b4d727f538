/**
 * Conditional rules of steps and fields: when a step or field is shown. One pure module,
 * free of Node imports, because the client's form (in the browser) and the service (the
 * step submit of the onboarding decider) must agree on what a client sees and must answer.
 *
 * The format (the spec leaves `conditional_rules` open):
 *
 *   { "show_when": { "field_id": "<uuid>", "operator": "equals" | "contains" | "is_empty"
 *                    | "is_not_empty", "value": "<text>" } }
 *
 * `value` is needed by equals and contains, and ignored by the others. A step or field
 * with such a rule is shown when the rule holds on the answer of the named field; without
 * a rule (null) it is always shown. Any other shape (rules the operator API stored before
 * this format existed, or written by hand) reads as "always shown": an unknown rule never
 * hides a question, so it never lets a client skip a required answer by accident.
 *
 * The answer a rule reads is the one of a field that is itself shown: a hidden field's
 * answer counts as empty, so hiding cascades (a field shown when a hidden field equals
 * "yes" stays hidden). A rule naming a field the form does not hold, or a chain of rules
 * that comes back to itself, reads the answer as empty.
 *
 * Comparisons: text is trimmed and compared without regard to case; a number or a yes/no
 * answer compares as its text ("42", "true"); a list of choices equals a value when it
 * holds that one choice only, and contains it when it holds it among others; text contains
 * a value when the value is part of it. Empty means what the catalogue says
 * (field-catalogue.ts isEmptyAnswer: blank text, no choices, an unticked box).
 */
import { isEmptyAnswer } from './field-catalogue.ts';

export const RULE_OPERATORS = ['equals', 'contains', 'is_empty', 'is_not_empty'] as const;
export type RuleOperator = (typeof RULE_OPERATORS)[number];

export interface ShowWhen {
  field_id: string;
  operator: RuleOperator;
  value?: string;
}

export const VALUE_MAX = 500;

/** Operators that compare with a value. */
export const needsValue = (operator: RuleOperator) => operator === 'equals' || operator === 'contains';

/** The rule of `conditional_rules`, or null for "always shown" (none, or a shape this module does not know). */
export function showWhenOf(rules: unknown): ShowWhen | null {
  if (!rules || typeof rules !== 'object' || Array.isArray(rules)) return null;
  const show = (rules as { show_when?: unknown }).show_when;
  if (!show || typeof show !== 'object' || Array.isArray(show)) return null;
  const { field_id, operator, value } = show as Record<string, unknown>;
  if (typeof field_id !== 'string' || field_id === '') return null;
  if (typeof operator !== 'string' || !(RULE_OPERATORS as readonly string[]).includes(operator)) return null;
  const op = operator as RuleOperator;
  if (needsValue(op)) {
    if (typeof value === 'string') return { field_id, operator: op, value };
    if (typeof value === 'number' || typeof value === 'boolean') {
      return { field_id, operator: op, value: String(value) };
    }
    return null;
  }
  return { field_id, operator: op };
}

const normal = (value: unknown): string | null => {
  if (typeof value === 'string') return value.trim().toLowerCase();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value).toLowerCase();
  return null;
};

/** Whether `rule` holds on `answer` (the answer of the field it names; null when none or hidden). */
export function ruleHolds(rule: ShowWhen, answer: unknown): boolean {
  const empty = isEmptyAnswer(answer);
  switch (rule.operator) {
    case 'is_empty':
      return empty;
    case 'is_not_empty':
      return !empty;
    case 'equals':
    case 'contains': {
      if (empty) return false;
      const wanted = normal(rule.value ?? '') ?? '';
      if (Array.isArray(answer)) {
        const items = answer.map(normal);
        return rule.operator === 'equals'
          ? items.length === 1 && items[0] === wanted
          : items.includes(wanted);
      }
      const given = normal(answer);
      if (given === null) return false;
      return rule.operator === 'equals' ? given === wanted : given.includes(wanted);
    }
    default:
      return true;
  }
}

/** The parts of a form the rules read: steps with their rules, fields with theirs. */
export interface RuleForm {
  steps: ReadonlyArray<{
    id: string;
    conditional_rules?: unknown;
    fields?: ReadonlyArray<{ id: string; conditional_rules?: unknown }> | null;
  }>;
}

export interface Visibility {
  stepShown(stepId: string): boolean;
  fieldShown(fieldId: string): boolean;
}

/**
 * Which steps and fields are shown for the answers `answerOf` gives (by field id; null or
 * undefined when unanswered). A field is shown when its step is shown and its own rule
 * holds. Results are kept per call, so asking for every field costs one pass.
 */
export function visibility(form: RuleForm, answerOf: (fieldId: string) => unknown): Visibility {
  const steps = new Map(form.steps.map((step) => [step.id, step]));
  const fields = new Map(
    form.steps.flatMap((step) =>
      (step.fields ?? []).map((field) => [field.id, { step_id: step.id, rules: field.conditional_rules }]),
    ),
  );
  const known = new Map<string, boolean>();
  const evaluating = new Set<string>();

  /** The answer a rule reads: empty unless the field exists and is shown. */
  const shownAnswer = (fieldId: string): unknown => (fieldShown(fieldId) ? answerOf(fieldId) : null);

  function decide(key: string, rules: unknown, parentShown: () => boolean): boolean {
    const cached = known.get(key);
    if (cached !== undefined) return cached;
    if (evaluating.has(key)) return false;
    evaluating.add(key);
    const rule = showWhenOf(rules);
    const shown = parentShown() && (rule === null || ruleHolds(rule, shownAnswer(rule.field_id)));
    evaluating.delete(key);
    known.set(key, shown);
    return shown;
  }

  function stepShown(stepId: string): boolean {
    const step = steps.get(stepId);
    if (!step) return false;
    return decide(`step:${stepId}`, step.conditional_rules, () => true);
  }

  function fieldShown(fieldId: string): boolean {
    const field = fields.get(fieldId);
    if (!field) return false;
    return decide(`field:${fieldId}`, field.rules, () => stepShown(field.step_id));
  }

  return { stepShown, fieldShown };
}

/**
 * What is wrong with the rule a builder saves on a step or field (messages for the
 * template's author): an unknown shape is refused here, though one already stored reads
 * as "always shown". `fieldIds` are the fields of the template the rule may name; `selfId`
 * is the field carrying the rule, which it may not name (a field cannot depend on itself).
 * One set of the template's field ids serves every rule, so checking a whole template is
 * linear in its size.
 */
export function ruleProblems(rules: unknown, fieldIds: ReadonlySet<string>, selfId?: string): string[] {
  if (rules === null || rules === undefined) return [];
  const rule = showWhenOf(rules);
  if (!rule) {
    return [
      'conditional_rules must be {"show_when": {"field_id", "operator": equals | contains | is_empty | is_not_empty, "value"}}',
    ];
  }
  const problems: string[] = [];
  if (Object.keys(rules as object).length !== 1) problems.push('conditional_rules holds only show_when');
  if (!fieldIds.has(rule.field_id) || (selfId !== undefined && rule.field_id === selfId))
    problems.push('conditional_rules names a field this template does not hold');
  if (needsValue(rule.operator)) {
    if ((rule.value ?? '').trim() === '') problems.push(`conditional_rules needs a value to compare with`);
    else if ((rule.value ?? '').length > VALUE_MAX) {
      problems.push(`conditional_rules value must be at most ${VALUE_MAX} characters`);
    }
  }
  return problems;
}
