import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../../services/web/security-headers.ts';
import { webRoutes } from '../../../services/web/web-routes.ts';

/**
 * The team workspace's pages over real HTTP: /, /workspace and /workspace/* answer the built
 * index.html (client-side routes), /web/workspace/* its files, with the page's security
 * headers; the JSON API under /workspace/v1 keeps its own routes. Fake builds in temporary
 * directories stand in for the two apps' dist folders.
 */

const FORM_INDEX = '<!doctype html><html><body>form</body></html>';
const WORKSPACE_INDEX =
  '<!doctype html><html><head><script type="module" src="/web/workspace/assets/index-1a2b.js"></script></head><body>workspace</body></html>';

let formDist: string;
let workspaceDist: string;
let empty: string;
const apps: FastifyInstance[] = [];

async function pageServer(workspaceDistDir: string): Promise<string> {
  const app = Fastify();
  await app.register(webRoutes, { distDir: formDist, workspaceDistDir });
  // Stands in for the workspace API plugin (registered with the prefix /workspace/v1).
  await app.register(
    async (api) => {
      api.get('/me', async (_request, reply) => reply.status(401).send({ code: 'session_required' }));
    },
    { prefix: '/workspace/v1' },
  );
  apps.push(app);
  return app.listen({ port: 0, host: '127.0.0.1' });
}

beforeAll(async () => {
  formDist = await mkdtemp(join(tmpdir(), 'form-dist-'));
  await writeFile(join(formDist, 'index.html'), FORM_INDEX);
  workspaceDist = await mkdtemp(join(tmpdir(), 'workspace-dist-'));
  await mkdir(join(workspaceDist, 'assets'));
  await writeFile(join(workspaceDist, 'index.html'), WORKSPACE_INDEX);
  await writeFile(join(workspaceDist, 'assets', 'index-1a2b.js'), 'console.log("workspace");');
  empty = await mkdtemp(join(tmpdir(), 'workspace-dist-missing-'));
});

afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  for (const dir of [formDist, workspaceDist, empty]) await rm(dir, { recursive: true, force: true });
});

const expectPageHeaders = (headers: Headers) => {
  expect(headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline');
  expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
  expect(headers.get('referrer-policy')).toBe('no-referrer');
  expect(headers.get('x-content-type-options')).toBe('nosniff');
};

describe('the workspace pages', () => {
  it('answer the built index.html at /, /workspace and every client-side route, not stored', async () => {
    const url = await pageServer(workspaceDist);
    for (const path of [
      '/',
      '/workspace',
      '/workspace/sign-in',
      '/workspace/integrations',
      `/workspace/invitations/${'cd'.repeat(32)}`,
      `/workspace/reset-password/${'ef'.repeat(32)}`,
    ]) {
      const page = await fetch(`${url}${path}`);
      expect(page.status, path).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('cache-control')).toBe('no-store');
      expectPageHeaders(page.headers);
      expect(await page.text()).toBe(WORKSPACE_INDEX);
    }
    const head = await fetch(`${url}/workspace/members`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('cache-control')).toBe('no-store');
  });

  it('leave /workspace/v1 to the API and /f/:token to the form', async () => {
    const url = await pageServer(workspaceDist);
    const me = await fetch(`${url}/workspace/v1/me`);
    expect(me.status).toBe(401);
    expect(await me.json()).toEqual({ code: 'session_required' });
    for (const path of ['/workspace/v1', '/workspace/v1/', '/workspace/v1/nothing-here?x=1']) {
      const unknown = await fetch(`${url}${path}`);
      expect(unknown.status, path).toBe(404);
      expect(unknown.headers.get('content-type')).toMatch(/^application\/json/);
    }
    expect(await (await fetch(`${url}/f/${'ab'.repeat(32)}`)).text()).toBe(FORM_INDEX);
  });

  it('serve their files under /web/workspace/, hashed assets immutable', async () => {
    const url = await pageServer(workspaceDist);
    const script = await fetch(`${url}/web/workspace/assets/index-1a2b.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expectPageHeaders(script.headers);
    expect(await script.text()).toBe('console.log("workspace");');
    expect((await fetch(`${url}/web/workspace/assets/missing.js`)).status).toBe(404);
    expect((await fetch(`${url}/web/workspace/../../package.json`)).status).toBe(404);
  });

  it('answer 503 with a short page when the workspace is not built', async () => {
    const url = await pageServer(join(empty, 'dist'));
    const page = await fetch(`${url}/workspace/sign-in`);
    expect(page.status).toBe(503);
    expectPageHeaders(page.headers);
    const text = await page.text();
    expect(text).toContain('npm run build:web');
    expect(text).not.toMatch(/<script|<style|style=/);
  });
});
