import { inTransaction } from '../../shared/db/pool.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { PostgresEventStore } from '../../shared/event-store/postgres-event-store.ts';
import { describeEventStoreContract } from './event-store.contract.ts';

describeEventStoreContract('PostgreSQL', async () => {
  const database = await createTestDatabase();
  const store = new PostgresEventStore(database.pool, database.url);
  return {
    store,
    transaction: (work) => inTransaction(database.pool, work),
    joinsTransactions: true,
    async close() {
      await store.close();
      await database.drop();
    },
  };
});
