/**
 * The service under the browser tests of the team workspace (the Preact app at / and
 * /workspace/*): real HTTP on a free loopback port that is PUBLIC_URL (so an emailed
 * invitation link is the page the browser opens), a fresh database, the test clock, and
 * every log line kept in memory for the secret check.
 *
 * Emails of the workspace (invitations, password resets) are read from the outbox table
 * (mail_outbox, kind "account"), as a person reads their inbox.
 */
import { expect } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { startFormService, type FormService } from './form-service.ts';

export type WorkspaceService = FormService;

/** The service at info level with its log captured; the API's rate limits off (the sign-in lock stays). */
export async function startWorkspaceService(env: Record<string, string> = {}): Promise<WorkspaceService> {
  const service = await startFormService(env);
  const home = await fetch(`${service.publicUrl}/`);
  const body = await home.text();
  if (home.status !== 200 || !/<!doctype html>/i.test(body)) {
    await service.stop();
    throw new Error(
      `GET / answered ${home.status}, not the workspace page: build the web apps first (npm run build:web)`,
    );
  }
  return service;
}

/** The newest email of the workspace to `to`, from the outbox. */
export async function lastAccountEmailTo(service: WorkspaceService, to: string): Promise<string> {
  const { rows } = await service.context.pool.query<{ text: string; kind: string }>(
    `select text, kind from mail_outbox where "to" = $1 order by created_at desc, seq desc limit 1`,
    [to],
  );
  if (!rows[0]) throw new Error(`no email to ${to} in the outbox`);
  expect(rows[0].kind).toBe('account');
  return rows[0].text;
}

/** The link `${PUBLIC_URL}/workspace/<kind>/<64 hex>` of an email's text. */
export function emailedLink(service: WorkspaceService, text: string, kind: 'invitations' | 'reset-password') {
  const escaped = service.publicUrl.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const match = new RegExp(`${escaped}/workspace/${kind}/([0-9a-f]{64})`).exec(text);
  if (!match)
    throw new Error(`the email has no ${service.publicUrl}/workspace/${kind}/<token> link:\n${text}`);
  return match[0];
}

/**
 * What must never reach the log: passwords, session cookie values, CSRF tokens and API key
 * secrets. Tests add every one they see.
 */
export class Secrets {
  readonly values = new Map<string, string>();

  add(kind: string, value: string | undefined | null): void {
    if (value) this.values.set(value, kind);
  }

  /** The session cookie of `context` and the CSRF token its page reads from GET /workspace/v1/me. */
  async addSession(context: BrowserContext, page: Page): Promise<void> {
    for (const cookie of await context.cookies()) {
      if (cookie.name === 'ws_session') this.add('session cookie', cookie.value);
    }
    const me = await inPage(page, 'GET', '/workspace/v1/me');
    if (me.status === 200) this.add('CSRF token', (me.body as { csrf_token?: string }).csrf_token);
  }
}

export function expectWorkspaceLogFreeOf(service: WorkspaceService, secrets: Secrets): void {
  expect(service.logLines.length).toBeGreaterThan(0);
  expect(secrets.values.size).toBeGreaterThan(0);
  const leaks: string[] = [];
  for (const line of service.logLines) {
    for (const [value, kind] of secrets.values) {
      if (line.includes(value)) leaks.push(`${kind} in: ${line.trim()}`);
    }
  }
  expect(leaks, leaks.join('\n')).toEqual([]);
}

/** A request made by the page itself (its cookies, its origin), JSON in and out. */
export async function inPage(
  page: Page,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: unknown }> {
  return page.evaluate(
    async ({ method, path, body, headers }) => {
      const response = await fetch(path, {
        method,
        credentials: 'same-origin',
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text === '' ? undefined : JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      return { status: response.status, body: parsed };
    },
    { method, path, body: options.body, headers: options.headers ?? {} },
  );
}

/** The id of the team the page is signed in to (GET /workspace/v1/me). */
export async function teamIdOf(page: Page): Promise<string> {
  const me = await inPage(page, 'GET', '/workspace/v1/me');
  expect(me.status).toBe(200);
  return (me.body as { team: { id: string } }).team.id;
}
