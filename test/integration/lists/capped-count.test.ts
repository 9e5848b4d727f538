import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cappedCountOf, type ReadClient } from '../../../projections/read-client.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';

/**
 * The workspace lists' total (decision 0104) through real PostgreSQL: exact up to the cap,
 * the cap and `capped` past it; the statement reads at most cap + 1 matches.
 */
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.pool.query(`
    create table cc_rows (id int primary key, team text not null);
    insert into cc_rows select n, case when n <= 5000 then 'large' else 'small' end from generate_series(1, 5003) n;
    analyze cc_rows;`);
});
afterAll(async () => {
  await database?.drop();
});

const count = (team: string, cap: number) =>
  cappedCountOf(database.pool, 'from cc_rows where team = $1', [team], cap);

describe('cappedCountOf', () => {
  it('is exact below and at the cap', async () => {
    expect(await count('small', 10)).toEqual({ count: 3, capped: false });
    expect(await count('small', 3)).toEqual({ count: 3, capped: false });
    expect(await count('nobody', 3)).toEqual({ count: 0, capped: false });
  });

  it('past the cap answers the cap and says so', async () => {
    expect(await count('small', 2)).toEqual({ count: 2, capped: true });
    expect(await count('large', 1000)).toEqual({ count: 1000, capped: true });
    expect(await count('large', 5000)).toEqual({ count: 5000, capped: false });
  });

  it('reads no more than cap + 1 matching rows', async () => {
    const sent: string[] = [];
    const recording: ReadClient = {
      query: (text: string, values?: readonly unknown[]) => {
        sent.push(text);
        return database.pool.query(text, values as unknown[]);
      },
    } as ReadClient;
    await cappedCountOf(recording, 'from cc_rows where team = $1', ['large'], 100);
    const plan = await database.pool.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, costs off, timing off, summary off) ${sent[0]}`,
      ['large'],
    );
    const scan = plan.rows.map((row) => row['QUERY PLAN']).find((line) => /Scan/.test(line));
    expect(scan).toMatch(/rows=101/);
  });
});
