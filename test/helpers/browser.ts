/**
 * Debian's Chromium driven by playwright-core, for the browser tests of the client's form
 * (test/browser). One browser per test file:
 *
 *   const browser = await launchBrowser();
 *   const { context, page, watch } = await openPage(browser, 'mobile');
 *   await page.goto(link);
 *   await screenshot(page, 'journey', 'pin', 'mobile');
 *   await expectNoAxeViolations(page, 'PIN screen');
 *   watch.assertClean();
 *
 * .ci/run installs Chromium (/usr/bin/chromium; CHROMIUM_PATH points elsewhere) and a font
 * with Japanese glyphs. The sandbox is off because CI runs as root.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import axe from 'axe-core';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from 'playwright-core';

// The functions given to page.evaluate run in the page; the project's compiler options have
// no DOM library, so the few page globals they use are declared here, in this module only.
interface PageElement {
  tagName: string;
  textContent: string | null;
  parentElement: PageElement | null;
  labels?: { length: number; [index: number]: PageElement };
  getAttribute(name: string): string | null;
}
declare const document: {
  activeElement: PageElement | null;
  body: PageElement;
  fonts: { ready: Promise<unknown> };
};
declare const window: object;
declare function getComputedStyle(element: PageElement): {
  outlineStyle: string;
  outlineWidth: string;
  boxShadow: string;
};

export type ViewportName = 'mobile' | 'desktop';

/** A phone (390x844, touch) and a laptop (1280x900). Scale factor 1 keeps screenshots quick. */
export const VIEWPORTS: Record<ViewportName, BrowserContextOptions> = {
  mobile: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 },
  desktop: { viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 },
};

export const VIEWPORT_NAMES: ViewportName[] = ['mobile', 'desktop'];

export const SCREENSHOT_DIR = path.resolve('test-output/screenshots');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
}

/**
 * What went wrong in a page: uncaught errors and Content Security Policy violations fail a
 * test; other console errors (a 401 for a wrong PIN, a 500 a test provokes) are kept for
 * the failure message only.
 */
export interface PageWatch {
  failures: string[];
  consoleErrors: string[];
  assertClean(): void;
}

/** Reports every CSP violation of the page as a console error the watch recognises. */
const REPORT_CSP_VIOLATIONS = `document.addEventListener('securitypolicyviolation', (event) => {
  console.error('CSP violation: ' + event.violatedDirective + ' blocked ' + (event.blockedURI || 'inline') + ' at ' + event.sourceFile + ':' + event.lineNumber);
});`;

export function watchPage(page: Page): PageWatch {
  const watch: PageWatch = {
    failures: [],
    consoleErrors: [],
    assertClean() {
      if (watch.failures.length > 0) {
        throw new Error(
          `the page had ${watch.failures.length} error(s):\n  ${watch.failures.join('\n  ')}` +
            (watch.consoleErrors.length > 0
              ? `\nconsole errors:\n  ${watch.consoleErrors.join('\n  ')}`
              : ''),
        );
      }
    },
  };
  page.on('pageerror', (error) => watch.failures.push(`page error: ${error.stack ?? error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    if (/CSP violation|Content Security Policy/i.test(text)) watch.failures.push(text);
    else watch.consoleErrors.push(text);
  });
  return watch;
}

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  watch: PageWatch;
}

/** A new context (no shared storage) at one of the two sizes, with one watched page. */
export async function openPage(
  browser: Browser,
  viewport: ViewportName,
  options: BrowserContextOptions = {},
): Promise<OpenedPage> {
  const context = await browser.newContext({ ...VIEWPORTS[viewport], ...options });
  await context.addInitScript({ content: REPORT_CSP_VIOLATIONS });
  const page = await context.newPage();
  return { context, page, watch: watchPage(page) };
}

/** A second watched page (tab) in the same context. */
export async function openTab(context: BrowserContext): Promise<{ page: Page; watch: PageWatch }> {
  const page = await context.newPage();
  return { page, watch: watchPage(page) };
}

/** test-output/screenshots/<test>-<screen>-<viewport>.png, the full page, once fonts are in. */
export async function screenshot(page: Page, test: string, screen: string, viewport: ViewportName) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  const file = path.join(SCREENSHOT_DIR, `${test}-${screen}-${viewport}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled', caret: 'hide' });
  return file;
}

/** WCAG 2.0, 2.1 and 2.2 at levels A and AA, and axe's best practices. */
export const AXE_TAGS = [
  'wcag2a',
  'wcag2aa',
  'wcag21a',
  'wcag21aa',
  'wcag22a',
  'wcag22aa',
  'best-practice',
] as const;

interface AxeViolationSummary {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: string; summary: string }[];
}

/** The violations axe-core finds in the page as it is now (axe is injected when missing). */
export async function axeViolations(page: Page): Promise<AxeViolationSummary[]> {
  // Evaluated over the DevTools protocol, which the page's CSP does not govern; the page's
  // own policy stays as it is.
  const present = await page.evaluate(() => 'axe' in window);
  if (!present) await page.evaluate(axe.source);
  return page.evaluate(
    async (tags) => {
      const runner = (window as unknown as { axe: typeof axe }).axe;
      const results = await runner.run(document, { runOnly: { type: 'tag', values: tags } });
      return results.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact ?? null,
        help: violation.help,
        helpUrl: violation.helpUrl,
        nodes: violation.nodes.map((node) => ({
          target: node.target.map(String).join(' '),
          summary: (node.failureSummary ?? '').replace(/\s+/g, ' ').trim(),
        })),
      }));
    },
    [...AXE_TAGS],
  );
}

/** Fails with one readable line per violation and element: rule id, help, target selector. */
export async function expectNoAxeViolations(page: Page, screen: string): Promise<void> {
  const violations = await axeViolations(page);
  if (violations.length === 0) return;
  const lines = violations.flatMap((violation) => [
    `${violation.id} (${violation.impact ?? 'no impact'}): ${violation.help} ${violation.helpUrl}`,
    ...violation.nodes.map((node) => `    ${node.target}  ${node.summary}`),
  ]);
  throw new Error(`axe-core: ${violations.length} violation(s) on ${screen}:\n  ${lines.join('\n  ')}`);
}

/** What has focus: its tag, type, accessible-ish name (label, aria-label or text) and name attribute. */
export interface FocusedElement {
  tag: string;
  type: string;
  label: string;
  name: string;
  /** Whether it shows focus: a computed outline (style not none, width above 0) or a box-shadow, on it or its parent. */
  visible: boolean;
}

export async function focusedElement(page: Page): Promise<FocusedElement | null> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return null;
    const shows = (candidate: PageElement | null) => {
      if (!candidate) return false;
      const style = getComputedStyle(candidate);
      const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
      return outline || (style.boxShadow !== 'none' && style.boxShadow !== '');
    };
    const labelled = element.labels && element.labels.length > 0 ? element.labels[0]!.textContent : null;
    return {
      tag: element.tagName.toLowerCase(),
      type: element.getAttribute('type') ?? '',
      label: (labelled ?? element.getAttribute('aria-label') ?? element.textContent ?? '').trim(),
      name: element.getAttribute('name') ?? '',
      visible: shows(element) || shows(element.parentElement),
    };
  });
}
