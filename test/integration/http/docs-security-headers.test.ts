import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_SECURITY_HEADERS, SWAGGER_UI_STYLE_HASH } from '../../../shared/http/docs-security-headers.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';

/**
 * /docs (the Swagger UI) carries the security headers of the service's other pages: a
 * Content-Security-Policy without 'unsafe-inline' and with frame-ancestors 'none',
 * X-Frame-Options, nosniff and no referrer, on the page and on every file and answer it loads.
 * test/browser/api-docs.test.ts shows the UI works under that policy.
 */

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
});
afterAll(async () => {
  await service?.stop();
});

const headersOf = async (path: string) => {
  const response = await fetch(`${service.url}${path}`, { redirect: 'manual' });
  await response.arrayBuffer();
  return { status: response.status, headers: response.headers };
};

const directives = (policy: string | null) =>
  new Map(
    (policy ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((parts) => parts[0] !== '')
      .map(([name, ...values]) => [name!, values.join(' ')]),
  );

describe('/docs security headers', () => {
  it.each([
    '/docs',
    '/docs/',
    '/docs/static/swagger-ui-bundle.js',
    '/docs/static/swagger-ui.css',
    '/docs/static/swagger-initializer.js',
    '/docs/json',
    '/docs/static/no-such-file.js',
  ])('%s', async (path) => {
    const { status, headers } = await headersOf(path);
    expect(status).toBeLessThan(500);
    for (const [name, value] of Object.entries(DOCS_SECURITY_HEADERS)) {
      expect([path, name, headers.get(name)]).toEqual([path, name, value]);
    }
    const policy = headers.get('content-security-policy');
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).not.toContain('unsafe-eval');
    expect(directives(policy).get('frame-ancestors')).toBe("'none'");
    expect(directives(policy).get('script-src')).toBe("'self'");
  });

  it('the same protections as the workspace page', async () => {
    const docs = await headersOf('/docs');
    const page = await headersOf('/');
    for (const name of ['x-content-type-options', 'referrer-policy']) {
      expect([name, docs.headers.get(name)]).toEqual([name, page.headers.get(name)]);
    }
    const docsPolicy = directives(docs.headers.get('content-security-policy'));
    const pagePolicy = directives(page.headers.get('content-security-policy'));
    // style-src: the same, plus the hash of the one style element the UI's bundle injects.
    expect(docsPolicy.get('style-src')).toBe(`${pagePolicy.get('style-src')} '${SWAGGER_UI_STYLE_HASH}'`);
    for (const directive of ['default-src', 'script-src', 'object-src', 'base-uri', 'frame-ancestors']) {
      expect([directive, docsPolicy.get(directive)]).toEqual([directive, pagePolicy.get(directive)]);
    }
  });

  it('other routes keep their own headers (the hook covers /docs only)', async () => {
    const { headers } = await headersOf('/openapi.json');
    expect(headers.get('x-frame-options')).toBeNull();
  });
});
