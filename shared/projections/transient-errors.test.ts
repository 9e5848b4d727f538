import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isTransientError } from './transient-errors.ts';

function databaseError(message: string, fields: Partial<pg.DatabaseError>): pg.DatabaseError {
  return Object.assign(new pg.DatabaseError(message, 0, 'error'), fields);
}

describe('transient errors', () => {
  it('tells passing causes (connection, serialization, cancel) from errors that repeat', () => {
    expect(isTransientError(databaseError('could not serialize access', { code: '40001' }))).toBe(true);
    expect(isTransientError(databaseError('deadlock detected', { code: '40P01' }))).toBe(true);
    expect(isTransientError(databaseError('terminating connection', { code: '57P01' }))).toBe(true);
    expect(isTransientError(databaseError('connection failure', { code: '08006' }))).toBe(true);
    expect(isTransientError(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isTransientError(Object.assign(new Error('read ECONNRESET'), { syscall: 'read' }))).toBe(true);
    expect(isTransientError(databaseError('unsupported Unicode escape sequence', { code: '22P05' }))).toBe(
      false,
    );
    expect(isTransientError(databaseError('integer out of range', { code: '22003' }))).toBe(false);
    expect(isTransientError(new Error('projection fault'))).toBe(false);
  });
});
