import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runAsSingleOwner, type SingleOwner } from '../../../shared/db/single-owner.ts';
import { createPool, type Pool } from '../../../shared/db/pool.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';

const KEY = 4242;

let database: TestDatabase;
let otherPool: Pool;
beforeAll(async () => {
  database = await createTestDatabase();
  otherPool = createPool(database.url, 5); // a second instance: a pool of its own
});
afterAll(async () => {
  await otherPool.end();
  await database.drop();
});

/** A part that records its terms and writes a row through the owner's session. */
function recordingPart(name: string, terms: string[]) {
  return {
    async start(session: { query: Pool['query'] }) {
      terms.push(`${name} started`);
      await session.query('select 1');
    },
    async stop() {
      terms.push(`${name} stopped`);
    },
  };
}

describe('one owner per database (advisory lock on a session of its own)', () => {
  test('only one instance runs the part; another takes over within seconds when the owner’s session dies', async () => {
    const terms: string[] = [];
    const owners: SingleOwner[] = [];
    try {
      owners.push(runAsSingleOwner(database.pool, KEY, recordingPart('a', terms), 200));
      await expect.poll(() => owners[0]!.owning, { timeout: 5000 }).toBe(true);
      owners.push(runAsSingleOwner(otherPool, KEY, recordingPart('b', terms), 200));
      await new Promise((resolve) => setTimeout(resolve, 800)); // b asked several times
      expect(owners[1]!.owning).toBe(false);
      expect(terms).toEqual(['a started']);

      // The owner's connection dies (as when its process is killed): PostgreSQL frees the lock.
      await otherPool.query(
        `select pg_terminate_backend(pid) from pg_locks
         where locktype = 'advisory' and objid = $1 and granted`,
        [KEY],
      );
      await expect.poll(() => owners[1]!.owning, { timeout: 5000 }).toBe(true);
      expect(owners[0]!.owning).toBe(false);
      expect(terms).toEqual(['a started', 'a stopped', 'b started']);
    } finally {
      await Promise.all(owners.map((owner) => owner.stop()));
    }
    expect(terms.at(-1)).toBe('b stopped');
  });
});
