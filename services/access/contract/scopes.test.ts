import { describe, expect, it } from 'vitest';
import { OFFERED_SCOPES, SCOPES, scopeLabel, scopeList } from './scopes.ts';

describe('key permission labels', () => {
  it("offers the spec's eight permissions with its labels, not templates:write", () => {
    expect(OFFERED_SCOPES.map(scopeLabel)).toEqual([
      'Read clients',
      'Create clients',
      'Read forms',
      'Create and update forms',
      'Read templates',
      'Read responses',
      'Read events',
      'Manage webhook subscriptions',
    ]);
    expect(OFFERED_SCOPES).not.toContain('templates:write');
    expect(SCOPES.filter((scope) => scope !== 'templates:write')).toEqual(OFFERED_SCOPES);
  });

  it("lists a key's permissions in the form's order; an unknown scope shows as it is", () => {
    expect(scopeList(['webhooks:write', 'templates:write', 'clients:read'])).toBe(
      'Read clients, Manage webhook subscriptions, templates:write',
    );
  });
});
