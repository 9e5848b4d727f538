import { describe, expect, it } from 'vitest';
import { SCOPE_LABELS as PAGE_LABELS } from '../../web/workspace/src/features/access/api-keys/scopes.ts';
import { SCOPE_LABELS } from './api-key-routes.ts';

describe('permission labels of API keys', () => {
  it("are the spec's, the same in the API's answers and on the Integrations page", () => {
    expect(SCOPE_LABELS).toEqual(PAGE_LABELS);
    expect(Object.keys(SCOPE_LABELS)).not.toContain('templates:write');
  });
});
