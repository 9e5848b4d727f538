import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../shared/commands/decider.ts';
import { onboardingDecider, type OnboardingCommand } from './index.ts';
import type { TemplateSnapshot } from '../onboarding-events.ts';
import { DeciderSpecification } from '../../../test/helpers/decider-spec.ts';
import { answered, at, created, field, sent, snapshot, started } from './test-fixtures.ts';

/**
 * Conditional rules on the server (../templates/contract/conditional-rules.ts), given-when-then:
 * a required field its rule hides is not required when its step is submitted, and a
 * required step its rule hides is not needed for completion.
 */

const showWhen = (field_id: string, value: string) => ({
  show_when: { field_id, operator: 'equals', value },
});

/**
 * Step s1: "kind" (required) and "company" (required, shown when kind equals business).
 * Step s2 (required, shown when kind equals business): "vat" (required).
 */
function form(): TemplateSnapshot {
  const base = snapshot({
    fields1: [
      field('kind', 'short_text'),
      field('company', 'short_text', { conditional_rules: showWhen('kind', 'business') }),
    ],
    fields2: [field('vat', 'short_text')],
  });
  return {
    ...base,
    steps: [
      base.steps[0]!,
      { ...base.steps[1]!, is_optional: false, conditional_rules: showWhen('kind', 'business') },
    ],
  };
}

const inProgress = [created(form()), sent(1, 'draft'), started(1, 'sent'), answered('kind', 's1')];

const submit = (step_id: string, values: Record<string, unknown>): OnboardingCommand => ({
  type: 'SubmitStep',
  data: { token_hash: 'hash-1', step_id, values },
  metadata: { now: at(6) },
});

const given = DeciderSpecification.for(onboardingDecider);

describe('SubmitStep with conditional rules', () => {
  it('a hidden required field is not required; a hidden required step is not needed: completed', () => {
    given(inProgress)
      .when(submit('s1', { kind: 'person' }))
      .thenTypes(['response.submitted', 'onboarding.completed']);
  });

  it('the same field shown (the rule holds) is required: invalid_body naming it', () => {
    const error = given(inProgress)
      .when(submit('s1', { kind: 'Business' }))
      .thenThrows('invalid_body');
    expect(error.details).toMatchObject({ field_id: 'company', step_id: 's1' });
  });

  it('a shown required step is needed: the first step alone does not complete, progress counts shown steps', () => {
    const answeredCompany = [...inProgress, answered('company', 's1')];
    const events = given(answeredCompany)
      .when(submit('s1', { kind: 'business', company: 'Acme' }))
      .events();
    expect(events.map((event) => event.type)).toEqual(['response.submitted']);
    expect((events[0]!.data as { progress_pct: number }).progress_pct).toBe(50);
  });

  it('a rule of another shape stored by the operator API reads as always shown', () => {
    const odd = form();
    odd.steps[0]!.fields[1]!.conditional_rules = { legacy_rule: 'anything' };
    odd.steps[1]!.conditional_rules = null;
    const events = [created(odd), sent(1, 'draft'), started(1, 'sent'), answered('kind', 's1')];
    expect(() =>
      given(events)
        .when(submit('s1', { kind: 'person' }))
        .events(),
    ).toThrow(DomainError);
  });
});
