import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { exportEvents } from '../../../services/events/export-events.ts';
import type { RecordedEvent } from '../../../shared/event-store/event-store.ts';
import { PostgresEventStore } from '../../../shared/event-store/postgres-event-store.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

let database: TestDatabase;
let store: PostgresEventStore;
let events: RecordedEvent[];
let folder: string;

beforeAll(async () => {
  database = await createTestDatabase();
  store = new PostgresEventStore(database.pool, database.url);
  folder = await mkdtemp(path.join(tmpdir(), 'export-test-'));
  // Run as root, the embedded PostgreSQL runs as `postgres`, which must reach its folder.
  await chmod(folder, 0o755);
  const sealed = { pd: 'v1', subject: randomUUID(), box: 'AAAA' };
  await store.append(
    'client-1',
    [
      {
        type: 'client.created',
        data: { client_id: 'c1', name: sealed },
        metadata: { command_id: 'cmd-1', correlation_id: 'corr-1' },
      },
    ],
    'no_stream',
  );
  for (let index = 0; index < 7; index++) {
    await store.append(
      `onboarding-${index % 2}`,
      [
        {
          type: 'onboarding.sent',
          data: { send_number: index, note: 'line\nbreak "quoted" ü' },
          metadata: {},
        },
      ],
      'any',
    );
  }
  events = await store.readAll({ after: 0n, limit: 100 });
});

afterAll(async () => {
  await store?.close();
  await database?.drop();
  await rm(folder, { recursive: true, force: true });
});

/** The NDJSON line of an event, spelled out field by field in the documented order. */
const line = (event: RecordedEvent) =>
  `{"position":"${event.position}","id":"${event.id}","stream_id":${JSON.stringify(event.streamId)},` +
  `"revision":${event.revision},"type":${JSON.stringify(event.type)},"time":"${event.recordedAt.toISOString()}",` +
  `"data":${JSON.stringify(event.data)},"metadata":${JSON.stringify(event.metadata)}}\n`;

function run(args: string[], env: Record<string, string | undefined>) {
  const { DATABASE_URL: _url, EVENTSTORE_URL: _es, DATA_DIR: _dir, ...inherited } = process.env;
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      path.join(ROOT, 'node_modules/.bin/tsx'),
      ['services/app/cli/export-cli.ts', ...args],
      { cwd: ROOT, env: { ...inherited, ...env }, maxBuffer: 10 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('events export', () => {
  test('writes the exact NDJSON of the log after a position, in batches, with progress', async () => {
    const from = events[2]!.position;
    const out = new PassThrough();
    const chunks: string[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
    const progress: [number, number][] = [];
    const result = await exportEvents(store, out, {
      from,
      batchSize: 2,
      progress: {
        update: (done, total) => progress.push([done, total]),
        finish: () => progress.push([-1, -1]),
      },
      count: async () => 5,
    });
    out.end();

    expect(chunks.join('')).toBe(events.slice(3).map(line).join(''));
    expect(result).toEqual({ events: 5, lastPosition: events[7]!.position, until: events[7]!.position });
    expect(progress).toEqual([
      [0, 5],
      [2, 5],
      [4, 5],
      [5, 5],
      [-1, -1],
    ]);
    // The sealed personal value is exported as it is stored.
    const client = JSON.parse(line(events[0]!)) as { data: { name: unknown } };
    expect(client.data.name).toEqual(events[0]!.data.name);
  });

  test('npm run events:export writes the file from --from, with progress and the next --from on stderr', async () => {
    const file = path.join(folder, 'events.ndjson');
    const { code, stderr } = await run(['--from', String(events[4]!.position), '--out', file], {
      DATABASE_URL: database.url,
    });
    expect(stderr).toContain(
      `exported 3 events after position ${events[4]!.position} up to ${events[7]!.position}`,
    );
    expect(code).toBe(0);
    expect(await readFile(file, 'utf8')).toBe(events.slice(5).map(line).join(''));
    expect(stderr).toMatch(/export \[█+\] 100% 3\/3 events/);
  });

  test('writes to stdout, and finds the running embedded server through <DATA_DIR>/database-url', async () => {
    const dataDir = path.join(folder, 'data');
    await rm(dataDir, { recursive: true, force: true });
    await mkdir(dataDir, { recursive: true });
    await writeFile(path.join(dataDir, 'database-url'), `${database.url}\n`);
    const { code, stdout, stderr } = await run([], { DATA_DIR: dataDir });
    expect(stderr).toContain('exported 8 events after position 0');
    expect(code).toBe(0);
    expect(stdout).toBe(events.map(line).join(''));
  });

  test(
    'starts the embedded server itself when none runs (an empty log exports nothing)',
    { timeout: 120_000 },
    async () => {
      const dataDir = path.join(folder, 'fresh');
      const { code, stdout, stderr } = await run([], { DATA_DIR: dataDir });
      expect(stderr).toContain('exported 0 events after position 0');
      expect(code).toBe(0);
      expect(stdout).toBe('');
      // It stopped its server again: the URL file is gone.
      await expect(readFile(path.join(dataDir, 'database-url'), 'utf8')).rejects.toThrow();
    },
  );

  test('refuses a --from that is not a position', async () => {
    const { code, stdout, stderr } = await run(['--from', 'yesterday'], { DATABASE_URL: database.url });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('--from: expected a log position');
  });
});
