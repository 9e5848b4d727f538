import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoForm } from '../../../services/web/demo-form.ts';
import { ADMIN_TOKEN, startTestService, type TestService } from '../../helpers/service.ts';

/** `npm run demo` over real HTTP: a sent form with a PIN whose link the page can open. */
let service: TestService;

beforeAll(async () => {
  service = await startTestService({ PUBLIC_URL: 'http://form.example' });
});
afterAll(() => service.stop());

describe('npm run demo', () => {
  it('makes a sent form of every field type whose link asks for its PIN', async () => {
    const demo = await createDemoForm({
      url: service.url,
      adminToken: ADMIN_TOKEN,
      locale: 'de-DE',
      pin: '482913',
    });
    expect(demo.link).toMatch(/^http:\/\/form\.example\/f\/[0-9a-f]{64}$/);
    const token = demo.link.split('/').pop()!;
    const face = await fetch(`${service.url}/portal/v1/onboardings/${token}/face`);
    expect(await face.json()).toMatchObject({
      link: { state: 'pin_required' },
      team: { display_name: 'Demo Accounting' },
      client: { locale: 'de-DE', date_format: 'DD.MM.YYYY' },
    });
    const open = await fetch(`${service.url}/portal/v1/onboardings/${token}`, {
      headers: { 'x-onboarding-pin': '482913' },
    });
    const body = (await open.json()) as {
      onboarding: { status: string; template_snapshot: { steps: unknown[] } };
    };
    expect(body.onboarding.status).toBe('in_progress');
    expect(body.onboarding.template_snapshot.steps).toHaveLength(3);
  });
});
