import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { provisionTenant } from '../api/provision.ts';
import type { BenchConfig } from '../lib/config.ts';
import type { Figure } from '../lib/figures.ts';
import type { Progress } from '../lib/progress.ts';
import { WORK_DIR, type BenchServer } from '../lib/server.ts';
import { startBenchService } from '../lib/bench-service.ts';
import { median } from '../lib/stats.ts';
import { launchBrowser, VIEWPORTS } from '../../test/helpers/browser.ts';
import { lighthouse, LIGHTHOUSE_VERSION, type LighthouseScores } from './lighthouse.ts';

export const PAGES_PART = '9 pages';
const LOADS = 7;
/** The most a page's first screen ships, compressed as sent (issue 31: 40 KB brotli). */
const FIRST_SCREEN_BUDGET_KIB = 40;
const STOP_TIMEOUT_MS = 30_000;

interface PageLoad {
  /** Sum over the page's requests to this service of request sent → first byte (server time). */
  serverMs: number;
  slowest: { path: string; ms: number };
  /** Navigation start → the page's main content shown. */
  readyMs: number;
  /** Response bodies as they travelled (compressed where the service compresses), and decoded. */
  bytes: { sent: number; raw: number };
  requests: number;
}

/**
 * Part 9: the pages people open, in Chromium at phone size: the client's form (a sent
 * onboarding's link) and the workspace's sign-in page. For each, over LOADS fresh loads
 * (no cache): the server's time on the page's requests (HTML, scripts, styles, the API
 * calls the page makes: Resource Timing, request sent to first byte), the time until the
 * page shows its content, and the bytes shipped as they travel (brotli where the browser
 * accepts it: docs/decisions/0100) beside their decoded size; then Lighthouse's mobile
 * performance and best-practices scores of the page (./lighthouse.ts).
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
      phase.done(
        `server ${median(loads.map((l) => l.serverMs)).toFixed(1)} ms, ${last.bytes.sent} bytes sent`,
      );
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
          name: `${page.name}: bytes shipped, as sent`,
          value: last.bytes.sent / 1024,
          unit: 'KiB',
          digits: 1,
          target: { op: '<=', value: FIRST_SCREEN_BUDGET_KIB },
          note: `every response body of the first screen as it travelled; ${(last.bytes.raw / 1024).toFixed(1)} KiB decoded`,
        },
      );
      const scores = await lighthouseOrNull(
        page.url,
        path.join(WORK_DIR, `lighthouse-${page.name.replace(/\W+/g, '-')}.json`),
        progress,
      );
      figures.push(
        {
          part: PAGES_PART,
          name: `${page.name}: Lighthouse mobile performance`,
          value: scores?.performance ?? null,
          unit: '',
          target: { op: '>=', value: 98 },
          note: scores ? losses(scores) : 'Lighthouse did not run (see the log)',
        },
        {
          part: PAGES_PART,
          name: `${page.name}: Lighthouse best practices`,
          value: scores?.bestPractices ?? null,
          unit: '',
          target: { op: '>=', value: 100 },
        },
      );
    }
    return {
      figures,
      note:
        `Part 9: services/app/runtime.ts startService in the bench process with the built web apps; Chromium ` +
        `(playwright-core) at 390x844, a new context per load (empty cache), ${LOADS} loads per page. Server time: ` +
        `Resource Timing's requestStart → responseStart summed over the page's requests to the service. Bytes: every ` +
        `response body the page received (HTML, scripts, styles, fonts, API answers) as it travelled (Chromium's ` +
        `encoded body size). Lighthouse ${LIGHTHOUSE_VERSION}, mobile defaults (simulated slow 4G and a 4x slower ` +
        `CPU), one run per page in Debian's Chromium.`,
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
  const sentSizes: Promise<number>[] = [];
  page.on('response', (response) => {
    if (response.url().startsWith(origin)) bodies.push(response.body().catch(() => null));
  });
  page.on('requestfinished', (request) => {
    if (request.url().startsWith(origin)) {
      sentSizes.push(
        request
          .sizes()
          .then((sizes) => sizes.responseBodySize)
          .catch(() => 0),
      );
    }
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
        sent: (await Promise.all(sentSizes)).reduce((sum, size) => sum + size, 0),
        raw: received.reduce((sum, body) => sum + body.length, 0),
      },
    };
  } finally {
    await context.close();
  }
}

async function lighthouseOrNull(
  url: string,
  reportPath: string,
  progress: Progress,
): Promise<LighthouseScores | null> {
  try {
    return await lighthouse(url, reportPath);
  } catch (error) {
    progress.log(
      `  Lighthouse failed: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`,
    );
    return null;
  }
}

/** What the scores lose points on, worst first. */
function losses(scores: LighthouseScores): string {
  return scores.losses.length === 0
    ? 'nothing under 100'
    : `under 100: ${scores.losses.slice(0, 6).join(', ')}`;
}
