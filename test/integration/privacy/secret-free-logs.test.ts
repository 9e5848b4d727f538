import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../shared/logging/logger.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { request } from '../../helpers/tenant.ts';
import { createTenant, portal, sentOnboarding, uploadFile } from '../portal-fixtures.ts';

/**
 * Client tokens and PINs never reach a log line: the service runs with every log level on
 * and its lines written to a buffer while a client uses a PIN link through the form page,
 * the face, the portal (right and wrong PINs, errors) and a browser's redirect.
 */

let service: TestService;
const lines: string[] = [];

beforeAll(async () => {
  const buffer = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  service = await startTestService({ RATE_LIMITS: 'on' }, { logger: createLogger('trace', buffer) });
});

afterAll(async () => {
  await service?.stop();
});

describe('logs', () => {
  it('hold neither the client token nor the PIN', async () => {
    const pin = '864213';
    const tenant = await createTenant(service);
    const { token } = await sentOnboarding(service, tenant, { send: { pin } });
    const { fields, steps } = tenant.ids;
    lines.length = 0;

    await fetch(`${service.url}/f/${token}`);
    await fetch(`${service.url}/portal/v1/onboardings/${token}?pin=${pin}`, {
      headers: { accept: 'text/html' },
      redirect: 'manual',
    });
    expect((await portal(service, token, 'GET', '/face')).status).toBe(200);
    expect((await portal(service, token, 'GET')).status).toBe(401);
    expect((await portal(service, token, 'GET', '', { pin: '000000' })).status).toBe(401);
    expect((await portal(service, token, 'GET', '', { pin })).status).toBe(200);
    expect(
      (await portal(service, token, 'PUT', `/answers/${fields.fullName}`, { pin, body: { value: 'Ada' } }))
        .status,
    ).toBe(200);
    expect((await portal(service, token, 'PUT', '/answers/nope', { pin, body: { value: 1 } })).status).toBe(
      404,
    );
    expect(
      (await portal(service, token, 'PUT', `/answers/${fields.fullName}`, { pin, body: '{' })).status,
    ).toBe(400);
    expect((await portal(service, token, 'POST', `/steps/${steps.about}/submit`, { pin })).status).toBe(200);
    expect(
      (await uploadFile(service, token, fields.idDocument, { name: 'id.pdf', content: '%PDF' }, pin)).status,
    ).toBe(201);
    expect((await request(service, 'GET', `/portal/v1/onboardings/${token}/nothing-here`)).status).toBe(404);
    expect((await request(service, 'GET', `/f/${token}/more`)).status).toBe(404);

    const logged = lines.join('');
    expect(logged).toContain('incoming request');
    expect(logged).toContain('"route":"/portal/v1/onboardings/:token"');
    expect(logged).toContain('"route":"/f/:token"');
    expect(logged).toContain('"route":"(no route)"');
    expect(logged).not.toContain('nothing-here');
    expect(logged).not.toContain(token);
    expect(logged.toLowerCase()).not.toContain(token);
    expect(logged).not.toContain(pin);
  });
});
