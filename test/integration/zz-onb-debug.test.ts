import { it } from 'vitest';
import { startTestService } from '../helpers/service.ts';
import { createOnboarding, createTenant, sendOnboarding } from './onboardings-fixtures.ts';
it('debug', async () => {
  const service = await startTestService();
  const tenant = await createTenant(service);
  const o = await createOnboarding(service, tenant);
  console.log(JSON.stringify(await sendOnboarding(service, tenant, o.id)));
  console.log(JSON.stringify(await sendOnboarding(service, tenant, o.id, {})));
  await service.stop();
});
