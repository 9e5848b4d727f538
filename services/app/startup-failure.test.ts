import { describe, expect, it } from 'vitest';
import { EmbeddedDatabaseError } from '../../shared/db/embedded-postgres-root.ts';
import { MigrationChangedError } from '../../shared/db/migrate.ts';
import { startupFailureLine } from './startup-failure.ts';

const settings = { DATABASE_URL: 'postgres://app:s3cret@db.internal:6543/app', HOST: '0.0.0.0', PORT: 3000 };

function systemError(code: string, syscall: string, message = `${syscall} ${code}`) {
  return Object.assign(new Error(message), { code, syscall });
}

describe('the one line of a failed start', () => {
  it('says what went wrong and what to do, on one line, without the password', () => {
    const lines = [
      startupFailureLine(systemError('EADDRINUSE', 'listen'), settings),
      startupFailureLine(systemError('ECONNREFUSED', 'connect'), settings),
      startupFailureLine(
        Object.assign(new Error('password authentication failed'), { code: '28P01' }),
        settings,
      ),
      startupFailureLine(systemError('EACCES', 'spawn initdb'), settings),
      startupFailureLine(new MigrationChangedError('012_clients.sql'), settings),
      startupFailureLine(new EmbeddedDatabaseError('PostgreSQL did not start on /x: FATAL: boom'), settings),
      startupFailureLine(new Error('first\nsecond'), settings),
    ];
    expect(lines).toEqual([
      'Cannot start: port 3000 on 0.0.0.0 is already in use; stop the program using it or set PORT to a free port',
      'Cannot start: the database at db.internal:6543 cannot be reached (ECONNREFUSED); check DATABASE_URL and that PostgreSQL is running there',
      'Cannot start: the database at db.internal:6543 refused the login; check the user and password in DATABASE_URL',
      'Cannot start: permission denied running initdb; as root, move the project to a folder every user can enter, start as another user, or set DATABASE_URL',
      'Cannot start: Migration 012_clients.sql was changed after it was applied: restore the file as it was and put the change in a new migration',
      'Cannot start: PostgreSQL did not start on /x: FATAL: boom',
      'Cannot start: first second',
    ]);
    for (const line of lines) expect(line).not.toContain('s3cret');
  });
});
