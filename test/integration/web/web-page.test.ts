import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../../services/web/security-headers.ts';
import { webRoutes } from '../../../services/web/web-routes.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { createTenant, sentOnboarding } from '../portal-fixtures.ts';

/**
 * The client's form page over real HTTP: /f/:token answers the built index.html and
 * /web/* the built files, with the page's security headers. A fake build in a temporary
 * directory stands in for services/web/client-form/dist; the whole service shows that
 * opening the page reads nothing and records nothing.
 */

const INDEX =
  '<!doctype html><html><head><script type="module" src="/web/assets/app-1a2b.js"></script></head><body></body></html>';
const TOKEN = 'ab'.repeat(32);

let dist: string;
let empty: string;
const apps: FastifyInstance[] = [];

async function pageServer(distDir: string): Promise<string> {
  const app = Fastify();
  await app.register(webRoutes, { distDir });
  apps.push(app);
  return app.listen({ port: 0, host: '127.0.0.1' });
}

beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'form-dist-'));
  await mkdir(join(dist, 'assets'));
  await writeFile(join(dist, 'index.html'), INDEX);
  await writeFile(join(dist, 'assets', 'app-1a2b.js'), 'console.log("form");');
  await writeFile(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  empty = await mkdtemp(join(tmpdir(), 'form-dist-missing-'));
});

afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  await rm(dist, { recursive: true, force: true });
  await rm(empty, { recursive: true, force: true });
});

const expectPageHeaders = (headers: Headers) => {
  expect(headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  expect(headers.get('referrer-policy')).toBe('no-referrer');
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('set-cookie')).toBeNull();
};

describe('GET and HEAD /f/:token', () => {
  it('answers the built index.html, not stored, with the security headers', async () => {
    const url = await pageServer(dist);
    for (const token of [TOKEN, 'anything-at-all']) {
      const page = await fetch(`${url}/f/${token}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('cache-control')).toBe('no-store');
      expectPageHeaders(page.headers);
      expect(await page.text()).toBe(INDEX);
    }
    const head = await fetch(`${url}/f/${TOKEN}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(head.headers.get('cache-control')).toBe('no-store');
    expectPageHeaders(head.headers);
    expect(await head.text()).toBe('');
  });

  it('answers 503 with a short page when the page is not built', async () => {
    const url = await pageServer(join(empty, 'dist'));
    const page = await fetch(`${url}/f/${TOKEN}`);
    expect(page.status).toBe(503);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expectPageHeaders(page.headers);
    const text = await page.text();
    expect(text).toContain('not built');
    expect(text).toContain('npm run build:web');
    expect(text).not.toMatch(/<script|<style|style=/);
    expect((await fetch(`${url}/web/assets/app-1a2b.js`)).status).toBe(404);
  });
});

describe('/web/*', () => {
  it('serves built assets immutable for a year, other files revalidated', async () => {
    const url = await pageServer(dist);
    const script = await fetch(`${url}/web/assets/app-1a2b.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expectPageHeaders(script.headers);
    expect(await script.text()).toBe('console.log("form");');

    const icon = await fetch(`${url}/web/favicon.svg`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(icon.headers.get('cache-control')).toBe('no-cache');
    expectPageHeaders(icon.headers);
  });

  it('answers 404 for missing files and paths outside the build', async () => {
    const url = await pageServer(dist);
    expect((await fetch(`${url}/web/assets/missing.js`)).status).toBe(404);
    expect((await fetch(`${url}/web/../package.json`)).status).toBe(404);
    expect((await fetch(`${url}/web/%2e%2e/%2e%2e/etc/passwd`)).status).toBe(404);
  });
});

describe('the page in the service', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService({ RATE_LIMITS: 'off' });
  });

  afterAll(async () => {
    await service?.stop();
  });

  it('opening /f/:token reads no onboarding and records nothing', async () => {
    const tenant = await createTenant(service);
    const { onboardingId, token } = await sentOnboarding(service, tenant);
    const before = await service.context.eventStore.readStream(`onboarding-${onboardingId}`);
    const page = await fetch(`${service.url}/f/${token}`);
    // The page is built by `npm run build:web`; without a build the route says so.
    expect([200, 503]).toContain(page.status);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expectPageHeaders(page.headers);
    const after = await service.context.eventStore.readStream(`onboarding-${onboardingId}`);
    expect(after.map((event) => event.id)).toEqual(before.map((event) => event.id));
  });

  it('the page routes are not part of the OpenAPI document', async () => {
    const document = (await (await fetch(`${service.url}/openapi.json`)).json()) as { paths: object };
    const paths = Object.keys(document.paths);
    expect(
      paths.some((path) => path.startsWith('/f/') || path.startsWith('/web') || path.startsWith('/brand')),
    ).toBe(false);
    expect(paths).toContain('/portal/v1/onboardings/{token}/face');
  });
});
