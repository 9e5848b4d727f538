import { describe, expect, it } from 'vitest';
import { requestIdOf } from './request-id.ts';

const idOf = (value?: string) =>
  requestIdOf({ headers: value === undefined ? {} : { 'x-request-id': value } });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('requestIdOf', () => {
  it("keeps a caller's well-formed id", () => {
    expect(idOf('req-42')).toBe('req-42');
    expect(idOf('4bf92f3577b34da6a3ce929d0e0e4736')).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(idOf('0f0a3c1e-8c1b-4f7e-9a55-3a2b1c0d9e8f')).toBe('0f0a3c1e-8c1b-4f7e-9a55-3a2b1c0d9e8f');
  });

  it('makes a new one when absent, malformed or too long', () => {
    expect(idOf()).toMatch(UUID);
    expect(idOf('has space')).toMatch(UUID);
    expect(idOf('x'.repeat(129))).toMatch(UUID);
  });

  it('never keeps a value shaped like one of the service’s secrets (it would be logged)', () => {
    expect(idOf('a'.repeat(64))).toMatch(UUID);
    expect(idOf('336783900F2C28A0E0DCB5FFFCE5D8543510A98B8706B316923EAD6099D5F35E')).toMatch(UUID);
    expect(idOf('cos_mIJrk0Xkkql1KaHEz1a-uEYDbJ_penrQBpk9orF21YQ')).toMatch(UUID);
    expect(idOf('whsec_abc')).toMatch(UUID);
  });
});
