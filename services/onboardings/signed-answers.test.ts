import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signedAnswersBytes, signedAnswersOf, signedAnswersSha256 } from './signed-answers.ts';

const onboardingId = '11111111-1111-4111-8111-111111111111';

describe('the canonical bytes a signature signs', () => {
  it('sorts keys at every depth, sorts file ids, and keeps no whitespace', () => {
    const bytes = signedAnswersBytes({
      onboarding_id: onboardingId,
      answers: { b: { z: 1, a: 'ü' }, a: [3, 1] },
      files: { f: ['y', 'x'] },
    });
    expect(bytes.toString('utf8')).toBe(
      `{"answers":{"a":[3,1],"b":{"a":"ü","z":1}},"files":{"f":["x","y"]},"onboarding_id":"${onboardingId}","v":1}`,
    );
  });

  it('hashes the bytes with SHA-256, the same whatever order the answers came in', () => {
    const one = { onboarding_id: onboardingId, answers: { a: 1, b: 2 }, files: {} };
    const two = { onboarding_id: onboardingId, answers: { b: 2, a: 1 }, files: {} };
    const expected = createHash('sha256').update(signedAnswersBytes(one)).digest('hex');
    expect(signedAnswersSha256(one)).toBe(expected);
    expect(signedAnswersSha256(two)).toBe(expected);
    expect(signedAnswersSha256({ ...one, answers: { a: 1, b: 3 } })).not.toBe(expected);
  });

  it('leaves out signature fields and unreadable values, and groups files by field', () => {
    const signed = signedAnswersOf(
      onboardingId,
      { name: 'Ada', sig: { drawing: 'M0 0' }, gone: null },
      { f1: { field_id: 'docs' }, f2: { field_id: 'docs' } },
      (fieldId) => fieldId === 'sig',
    );
    expect(signed).toEqual({
      onboarding_id: onboardingId,
      answers: { name: 'Ada' },
      files: { docs: ['f1', 'f2'] },
    });
  });
});
