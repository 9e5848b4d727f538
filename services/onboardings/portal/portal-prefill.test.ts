import { describe, expect, it } from 'vitest';
import type { TemplateSnapshot } from '../onboarding-events.ts';
import { prefillAnswers } from './portal-prefill.ts';

const field = (id: string, type: string, config: Record<string, unknown>) =>
  ({ id, type, label: id, is_required: false, config, sort_order: 0, conditional_rules: null }) as never;
const snapshot = {
  steps: [
    {
      id: 's1',
      fields: [
        field('name', 'short_text', { prefill: 'client_name' }),
        field('email', 'email', { prefill: 'client_email' }),
        field('wrong', 'email', { prefill: 'client_name' }),
        field('plain', 'short_text', {}),
      ],
    },
  ],
} as unknown as TemplateSnapshot;
const client = { name: 'Ada Lovelace', email: 'ada@example.com' };

describe('prefillAnswers', () => {
  it("fills the client's name and email into the fields that ask for them", () => {
    expect(prefillAnswers(snapshot, new Set(), client)).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
    });
  });

  it('never fills over an answer, and fills nothing without a client', () => {
    expect(prefillAnswers(snapshot, new Set(['name']), client)).toEqual({ email: 'ada@example.com' });
    expect(prefillAnswers(snapshot, new Set(), undefined)).toEqual({});
  });
});
