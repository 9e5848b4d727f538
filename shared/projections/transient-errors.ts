import pg from 'pg';
import { isConnectionError } from '../db/connection-errors.ts';

/**
 * Errors that say nothing about the event being applied: the connection, the server or a
 * concurrent transaction failed. The batch is tried again as it is; parking the event
 * would lose it for a cause that passes.
 *
 * SQLSTATE classes: 08 connection exception, 40 transaction rollback (serialization
 * failure, deadlock), 53 insufficient resources, 57 operator intervention (shutdown,
 * cancel, statement timeout), 58 system error; 55P03 lock not available.
 * Everything else (data errors of class 22, constraint violations, a projection's own
 * bug) fails the same way on every try: the event is parked.
 */
const TRANSIENT_CLASSES = new Set(['08', '40', '53', '57', '58']);
const TRANSIENT_CODES = new Set(['55P03']);
/** What pg says in words only, beyond what isConnectionError already knows. */
const BROKEN_CONNECTION_MESSAGES = /connection error|connection ended|socket hang up/i;

export function isTransientError(error: unknown): boolean {
  if (isConnectionError(error)) return true;
  if (error instanceof pg.DatabaseError) {
    const code = error.code ?? '';
    return TRANSIENT_CLASSES.has(code.slice(0, 2)) || TRANSIENT_CODES.has(code);
  }
  if (!(error instanceof Error)) return false;
  // Node's socket errors (ECONNRESET, EPIPE, ...) carry the failed system call.
  if ('syscall' in error || 'errno' in error) return true;
  return BROKEN_CONNECTION_MESSAGES.test(error.message);
}
