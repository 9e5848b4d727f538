import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyRows } from '../../../shared/db/copy-rows.ts';
import { buildDeferredIndexes, deferIndexes } from '../../../shared/projections/shadow-indexes.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';

/**
 * What a rebuild's shadow tables are filled with and how (shared/projections/rebuild.ts):
 * only the indexes the replay needs while it replays, the others built at the end; new rows
 * written by COPY, every value arriving as it was sent.
 */
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

const indexesOf = async (table: string) =>
  (
    await database.pool.query<{ indexname: string }>(
      'select indexname from pg_indexes where tablename = $1 order by 1',
      [table],
    )
  ).rows.map((row) => row.indexname);

describe('shadow tables', () => {
  it('keep their unique, constraint and named indexes while replaying and get the others back at the end', async () => {
    await database.pool.query(`
      create table st_live (id uuid primary key, team text, code text unique, at timestamptz, note text);
      create index st_live_team on st_live (team, at desc);
      create index st_live_note on st_live (note) where note is not null;
      create unique index st_live_code_team on st_live (team, code) where code is not null;
      create index st_live_at on st_live (at);
      create table st_shadow (like st_live including all);`);
    const client = await database.pool.connect();
    const deferred = await deferIndexes(client, 'st_live', 'st_shadow', ['st_live_at']).finally(() =>
      client.release(),
    );
    expect(deferred.map((index) => index.name).sort()).toEqual([
      'st_shadow_note_idx',
      'st_shadow_team_at_idx',
    ]);
    expect(await indexesOf('st_shadow')).toEqual([
      'st_shadow_at_idx',
      'st_shadow_code_key',
      'st_shadow_pkey',
      'st_shadow_team_code_idx',
    ]);
    await buildDeferredIndexes(database.pool, deferred);
    expect(await indexesOf('st_shadow')).toEqual([
      'st_shadow_at_idx',
      'st_shadow_code_key',
      'st_shadow_note_idx',
      'st_shadow_pkey',
      'st_shadow_team_at_idx',
      'st_shadow_team_code_idx',
    ]);
  });

  it('COPY writes every value as sent: nulls, escapes, JSON, dates, big numbers, many rows', async () => {
    await database.pool.query(`
      create table st_copy (id integer primary key, label text, data jsonb, at timestamptz,
                            position bigint, done boolean)`);
    const awkward = 'tab\there\nnew line \\ backslash \\N "quoted" émoji 🎉 \r';
    const rows = Array.from({ length: 1234 }, (_, index) => ({
      id: index,
      label: index === 0 ? awkward : index % 7 === 0 ? null : `label ${index}`,
      data: index === 0 ? { text: awkward, list: [1, null, 'a\\b'] } : { n: index },
      at: new Date(Date.UTC(2026, 10, 29, 4, 0, index % 60)),
      position: 9_007_199_254_740_993n + BigInt(index),
      done: index % 2 === 0,
      ignored: 'a property not among the columns',
    }));
    const client = await database.pool.connect();
    await copyRows(client, 'st_copy', ['id', 'label', 'data', 'at', 'position', 'done'], rows).finally(() =>
      client.release(),
    );
    const { rows: stored } = await database.pool.query<{
      id: number;
      label: string | null;
      data: unknown;
      at: Date;
      position: string;
      done: boolean;
    }>('select id, label, data, at, position, done from st_copy order by id');
    expect(stored).toHaveLength(1234);
    expect(stored[0]).toEqual({
      id: 0,
      label: awkward,
      data: { text: awkward, list: [1, null, 'a\\b'] },
      at: new Date(Date.UTC(2026, 10, 29, 4, 0, 0)),
      position: '9007199254740993',
      done: true,
    });
    expect(stored[7]!.label).toBeNull();
    expect(stored[1233]).toMatchObject({
      label: 'label 1233',
      data: { n: 1233 },
      position: '9007199254742226',
    });
  });

  it('a duplicate key fails the COPY and writes none of its rows', async () => {
    await database.pool.query('create table st_dup (id integer primary key)');
    const client = await database.pool.connect();
    try {
      await expect(copyRows(client, 'st_dup', ['id'], [{ id: 1 }, { id: 2 }, { id: 1 }])).rejects.toThrow(
        /duplicate key/,
      );
    } finally {
      client.release();
    }
    expect((await database.pool.query('select count(*)::int as n from st_dup')).rows[0].n).toBe(0);
  });
});
