import type { Settings } from '../../shared/config/settings.ts';
import { EmbeddedDatabaseError } from '../../shared/db/embedded-postgres-root.ts';
import { isConnectionError } from '../../shared/db/connection-errors.ts';
import { MigrationChangedError } from '../../shared/db/migrate.ts';
import { KekRequiredError } from '../../shared/privacy/kek-source.ts';
import { KeyEncryptionKeyError } from '../../shared/privacy/key-encryption-key.ts';

/**
 * The one line `npm start` prints when the service cannot start (services/app/main.ts), in
 * place of a stack trace: what went wrong and what to do. The database URL's password never
 * appears in it (only host and port).
 */
export function startupFailureLine(
  error: unknown,
  settings: Pick<Settings, 'DATABASE_URL' | 'HOST' | 'PORT'>,
): string {
  if (
    error instanceof MigrationChangedError ||
    error instanceof EmbeddedDatabaseError ||
    error instanceof KekRequiredError ||
    error instanceof KeyEncryptionKeyError
  ) {
    return `Cannot start: ${oneLine(error.message)}`;
  }
  const code = codeOf(error);
  const syscall = (error as { syscall?: unknown } | null)?.syscall;
  if (code === 'EADDRINUSE') {
    return `Cannot start: port ${settings.PORT} on ${settings.HOST} is already in use; stop the program using it or set PORT to a free port`;
  }
  if (code === 'EACCES' && syscall === 'listen') {
    return `Cannot start: not allowed to listen on port ${settings.PORT} on ${settings.HOST}; set PORT to 1024 or above`;
  }
  if (code === 'EACCES' && typeof syscall === 'string' && syscall.startsWith('spawn')) {
    return `Cannot start: permission denied running ${syscall.slice('spawn '.length)}; as root, move the project to a folder every user can enter, start as another user, or set DATABASE_URL`;
  }
  const where = databaseAddress(settings.DATABASE_URL);
  if (isConnectionError(error)) {
    return `Cannot start: the database at ${where} cannot be reached (${code ?? 'no connection'}); check DATABASE_URL and that PostgreSQL is running there`;
  }
  if (code === '28P01' || code === '28000') {
    return `Cannot start: the database at ${where} refused the login; check the user and password in DATABASE_URL`;
  }
  if (code === '3D000') {
    return `Cannot start: the database named in DATABASE_URL does not exist at ${where}; create it or correct DATABASE_URL`;
  }
  if (code === 'ENOTFOUND') {
    return `Cannot start: the database host in DATABASE_URL (${where}) is not known; correct DATABASE_URL`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `Cannot start: ${oneLine(message)}`;
}

/** The SQLSTATE or system error code of the error or of an error it wraps. */
function codeOf(error: unknown, depth = 0): string | undefined {
  if (depth > 8 || typeof error !== 'object' || error === null) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string') return code;
  if (Array.isArray(errors)) {
    for (const inner of errors) {
      const found = codeOf(inner, depth + 1);
      if (found) return found;
    }
  }
  return codeOf(cause, depth + 1);
}

function databaseAddress(url: string | undefined): string {
  if (!url) return 'the embedded PostgreSQL';
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}`;
  } catch {
    return 'DATABASE_URL';
  }
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
