import { describe, expect, it } from 'vitest';
import { DomainError } from '../../shared/commands/decider.ts';
import { ApiError, codedError, textError } from '../../shared/http/api-error.ts';
import { answerRefusal, registerDomainErrors } from '../../shared/http/domain-errors.ts';

describe('domain error tables', () => {
  const base = registerDomainErrors('test base', {
    statuses: { thing_missing: 404 },
    defaultStatus: 400,
    form: (error, status) => codedError(status, error.code, error.message, error.details),
  });
  const feature = registerDomainErrors('test feature', {
    statuses: { rule_broken: 409 },
    special: (error) => (error.code === 'gone' ? textError(410, 'Gone') : undefined),
    form: (error, status) => codedError(status, error.code, error.message),
    fallback: base,
  });

  it('answers a code with its status and the form of the table', () => {
    const answer = feature.answer(new DomainError('rule_broken', 'Rule broken', { field: 'x' }));
    expect(answer?.status).toBe(409);
    expect(answer?.body('r1')).toEqual({
      error: 'Rule broken',
      code: 'rule_broken',
      message: 'Rule broken',
      retryable: false,
      request_id: 'r1',
    });
  });

  it('checks special answers first and hands unknown codes to the fallback', () => {
    expect(feature.answer(new DomainError('gone'))?.body('r1')).toEqual({ error: 'Gone' });
    expect(feature.answer(new DomainError('thing_missing'))?.status).toBe(404);
    expect(feature.answer(new DomainError('other'))?.status).toBe(400);
  });

  it('leaves errors that are not refusals, and codes no table knows, unchanged', () => {
    const plain = new Error('boom');
    expect(answerRefusal(feature, plain)).toBe(plain);
    const unknown = new DomainError('unknown');
    const strict = registerDomainErrors('test strict', {
      statuses: {},
      form: (error, status) => new ApiError(status, error.message),
    });
    expect(answerRefusal(strict, unknown)).toBe(unknown);
  });

  it('registers a feature once', () => {
    expect(() =>
      registerDomainErrors('test base', { statuses: {}, form: (error, status) => textError(status, '') }),
    ).toThrow(/registered twice/);
  });
});
