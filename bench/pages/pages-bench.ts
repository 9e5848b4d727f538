import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { provisionTenant } from '../api/provision.ts';
import type { BenchConfig } from '../lib/config.ts';
import type { Figure } from '../lib/figures.ts';
import type { Progress } from '../lib/progress.ts';
import type { BenchServer } from '../lib/server.ts';
import { startBenchService } from '../lib/bench-service.ts';
import { median } from '../lib/stats.ts';
import { launchBrowser, VIEWPORTS } from '../../test/helpers/browser.ts';

export const PAGES_PART = '9 pages';
const LOADS = 7;
const STOP_TIMEOUT_MS = 30_000;

interface PageLoad {
  /** Sum over the page's requests to this service of request sent → first byte (server time). */
  serverMs: number;
  slowest: { path: string; ms: number };
  /** Navigation start → the page's main content shown. */
  readyMs: number;
  bytes: { raw: number; gzip: number; brotli: number };
  requests: number;
}

/**
 * Part 9: the pages people open, in Chromium at phone size: the client's form (a sent
 * onboarding's link) and the workspace's sign-in page. For each, over LOADS fresh loads
 * (no cache): the server's time on the page's requests (HTML, scripts, styles, the API
 * calls the page makes: Resource Timing, request sent to first byte), the time until the
 * page shows its content, and the bytes shipped, as the service sends them (uncompressed)
 * and as gzip and brotli would (a proxy or CDN in front compresses: README).
 */
export async function runPagesBench(
  server: BenchServer,
  _config: BenchConfig,
  progress: Progress,
): Promise<{ figures: Figure[]; note: string }> {
  const { service, adminToken } = await startBenchService(server, 'pages');
  const browser = await launchBrowser();
  try {
    const tenant = await provisionTenant(service.url, adminToken);
    const call = async (token: string, method: string, path: string, body?: unknown) => {
      const response = await fetch(`${service.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status}`);
      return (await response.json()) as any;
    };
    const { onboarding } = await call(tenant.apiKey, 'POST', '/api/v1/onboardings', {
      template_id: tenant.templateId,
      client_id: tenant.clientId,
    });
    await call(tenant.apiKey, 'POST', `/api/v1/onboardings/${onboarding.id}/send`, {});
    const { token } = await call(adminToken, 'GET', `/admin/v1/onboardings/${onboarding.id}/link`);

    const pages = [
      { name: 'client form', url: `${service.url}/f/${token}`, ready: 'form' },
      { name: 'workspace sign-in', url: `${service.url}/workspace/sign-in`, ready: 'form' },
    ];
    const figures: Figure[] = [];
    for (const page of pages) {
      const phase = progress.phase(`page ${page.name}`, LOADS, 'loads');
      const loads: PageLoad[] = [];
      for (let index = 0; index < LOADS; index++) {
        loads.push(await loadOnce(browser, page.url, page.ready, service.url));
        phase.update(index + 1);
      }
      const last = loads.at(-1)!;
      phase.done(`server ${median(loads.map((l) => l.serverMs)).toFixed(1)} ms, ${last.bytes.raw} bytes`);
      figures.push(
        {
          part: PAGES_PART,
          name: `${page.name}: server time per page`,
          value: median(loads.map((load) => load.serverMs)),
          unit: 'ms',
          digits: 1,
          note:
            `median of ${LOADS} loads; ${last.requests} requests to the service; slowest in the last load ` +
            `${last.slowest.path} ${last.slowest.ms.toFixed(1)} ms`,
        },
        {
          part: PAGES_PART,
          name: `${page.name}: shown after`,
          value: median(loads.map((load) => load.readyMs)),
          unit: 'ms',
          digits: 0,
          note: 'navigation start → main content visible, Chromium on the same machine',
        },
        {
          part: PAGES_PART,
          name: `${page.name}: bytes shipped`,
          value: last.bytes.raw / 1024,
          unit: 'KiB',
          digits: 1,
        },
        {
          part: PAGES_PART,
          name: `${page.name}: bytes, gzip`,
          value: last.bytes.gzip / 1024,
          unit: 'KiB',
          digits: 1,
        },
        {
          part: PAGES_PART,
          name: `${page.name}: bytes, brotli`,
          value: last.bytes.brotli / 1024,
          unit: 'KiB',
          digits: 1,
        },
      );
    }
    return {
      figures,
      note:
        `Part 9: services/app/runtime.ts startService in the bench process with the built web apps; Chromium ` +
        `(playwright-core) at 390x844, a new context per load (empty cache), ${LOADS} loads per page. Server time: ` +
        `Resource Timing's requestStart → responseStart summed over the page's requests to the service. Bytes: every ` +
        `response body the page received (HTML, scripts, styles, fonts, API answers), and the same bodies compressed.`,
    };
  } finally {
    await browser.close();
    await Promise.race([
      service.stop(),
      new Promise((resolve) => setTimeout(resolve, STOP_TIMEOUT_MS).unref()),
    ]);
  }
}

async function loadOnce(
  browser: Browser,
  url: string,
  readySelector: string,
  origin: string,
): Promise<PageLoad> {
  const context = await browser.newContext({ ...VIEWPORTS.mobile });
  const page: Page = await context.newPage();
  const bodies: Promise<Buffer | null>[] = [];
  page.on('response', (response) => {
    if (response.url().startsWith(origin)) bodies.push(response.body().catch(() => null));
  });
  try {
    const started = Date.now();
    await page.goto(url);
    await page.locator(readySelector).first().waitFor({ state: 'visible', timeout: 15_000 });
    const readyMs = Date.now() - started;
    await page.waitForLoadState('networkidle');
    // Evaluated in the page (DOM types are not in this project's TypeScript libs).
    const timings = (await page.evaluate(`
      [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
        .filter((entry) => entry.name.startsWith(${JSON.stringify(origin)}))
        .map((entry) => ({ path: new URL(entry.name).pathname, ms: Math.max(0, entry.responseStart - entry.requestStart) }))
    `)) as { path: string; ms: number }[];
    const serverMs = timings.reduce((sum, timing) => sum + timing.ms, 0);
    const slowest = timings.reduce((worst, timing) => (timing.ms > worst.ms ? timing : worst), timings[0]!);
    const received = (await Promise.all(bodies)).filter((body): body is Buffer => body !== null);
    return {
      serverMs,
      slowest: { path: slowest.path.replace(/[0-9a-f]{64}/, ':token'), ms: slowest.ms },
      readyMs,
      requests: received.length,
      bytes: {
        raw: received.reduce((sum, body) => sum + body.length, 0),
        gzip: received.reduce((sum, body) => sum + gzipSync(body).length, 0),
        brotli: received.reduce((sum, body) => sum + brotliCompressSync(body).length, 0),
      },
    };
  } finally {
    await context.close();
  }
}
