import { describe, expect, it } from 'vitest';
import { isConnectionError } from './connection-errors.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isConnectionError', () => {
  it.each([
    ['connection refused', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['connection reset', withCode('read ECONNRESET', 'ECONNRESET')],
    ['backend terminated (57P01)', withCode('terminating connection due to administrator command', '57P01')],
    [
      'crash shutdown (57P02)',
      withCode('terminating connection because of crash of another server process', '57P02'),
    ],
    ['starting up (57P03)', withCode('the database system is starting up', '57P03')],
    ['connection exception class 08', withCode('connection failure', '08006')],
    ['too many connections', withCode('sorry, too many clients already', '53300')],
    ['socket closed under a query', new Error('Connection terminated unexpectedly')],
    ['pool connect timeout', new Error('timeout exceeded when trying to connect')],
    [
      'connect timeout with its cause',
      new Error('Connection terminated due to connection timeout', {
        cause: new Error('Connection terminated'),
      }),
    ],
    ['broken client reused', new Error('Client has encountered a connection error and is not queryable')],
    [
      'a cause deep in the chain',
      new Error('outer', { cause: new Error('middle', { cause: withCode('x', 'ECONNRESET') }) }),
    ],
    [
      'AggregateError of connects',
      new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')]),
    ],
  ])('%s: yes', (_name, error) => {
    expect(isConnectionError(error)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('duplicate key value violates unique constraint', '23505')],
    ['invalid text (22P05)', withCode('unsupported Unicode escape sequence', '22P05')],
    ['serialization failure', withCode('could not serialize access', '40001')],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['not an error', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('%s: no', (_name, error) => {
    expect(isConnectionError(error)).toBe(false);
  });
});
