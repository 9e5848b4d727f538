import { Writable } from 'node:stream';
import { expect } from 'vitest';
import { createLogger, type Logger } from '../../shared/logging/logger.ts';
import { registerSecrets } from '../helpers/run-log.ts';
import type { TestService } from '../helpers/service.ts';

/** A browser of the workspace: keeps the session cookie and the CSRF token. */
export class Browser {
  cookie = '';
  csrf = '';

  constructor(
    private readonly service: TestService,
    private readonly headers: Record<string, string> = {},
  ) {}

  async call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${this.service.url}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(this.csrf && method !== 'GET' ? { 'x-csrf-token': this.csrf } : {}),
        ...this.headers,
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0]!;
    const text = await response.text();
    const json = text ? JSON.parse(text) : undefined;
    if (json?.csrf_token) this.csrf = json.csrf_token;
    registerSecrets(this.cookie.split('=').slice(1).join('='), this.csrf, json?.secret);
    return { status: response.status, body: json, headers: response.headers, setCookie };
  }

  /** A second browser that starts with this one's cookie and CSRF token (a copied session). */
  copy(): Browser {
    const other = new Browser(this.service, this.headers);
    other.cookie = this.cookie;
    other.csrf = this.csrf;
    return other;
  }
}

/**
 * Signs up a new team, follows the emailed verification link (unless `verify` is false: the
 * team then may not send) and signs in; answers the owner's browser, team and member ids.
 */
export async function signUp(
  service: TestService,
  email: string,
  password: string,
  team = 'Acme',
  { verify = true }: { verify?: boolean } = {},
) {
  registerSecrets(password);
  const owner = new Browser(service);
  const answer = await owner.call('POST', '/workspace/v1/sign-up', {
    team_name: team,
    name: 'Olive Owner',
    email,
    password,
  });
  expect(answer.status).toBe(202);
  if (verify) await followVerificationLink(service, email);
  const signedIn = await owner.call('POST', '/workspace/v1/sessions', { email, password });
  expect(signedIn.status).toBe(200);
  return {
    owner,
    teamId: signedIn.body.team.id as string,
    memberId: signedIn.body.member.id as string,
  };
}

/** The newest verification link emailed to `email`, followed (in a browser without a session). */
export async function followVerificationLink(service: TestService, email: string) {
  const token = linkToken(await lastEmailTo(service, email));
  registerSecrets(service.context.settings.SMTP_URL ? token : undefined);
  const verified = await new Browser(service).call('POST', `/workspace/v1/email-verification/${token}`);
  expect(verified.status).toBe(200);
}

/** Invites `email` with `role` and accepts through the emailed link; answers their browser. */
export async function addMember(
  service: TestService,
  owner: Browser,
  email: string,
  role: 'owner' | 'admin' | 'member',
  password = 'a member long passphrase',
) {
  const invite = await owner.call('POST', '/workspace/v1/invitations', { email, name: email, role });
  expect(invite.status).toBe(201);
  const token = linkToken(await lastEmailTo(service, email));
  // Without SMTP_URL the invitation link is logged on purpose (README, "Logs"); with it, never.
  registerSecrets(password, service.context.settings.SMTP_URL ? token : undefined);
  const browser = new Browser(service);
  const accepted = await browser.call('POST', `/workspace/v1/invitations/${token}/accept`, {
    name: email,
    password,
  });
  expect(accepted.status).toBe(201);
  return { browser, memberId: accepted.body.member.id as string };
}

export async function lastEmailTo(service: TestService, to: string): Promise<string> {
  const { rows } = await service.context.pool.query<{ text: string; kind: string }>(
    `select text, kind from mail_outbox where "to" = $1 order by created_at desc, seq desc limit 1`,
    [to],
  );
  expect(rows[0]?.kind).toBe('account');
  return rows[0]!.text;
}

/** The 64-hex token of an emailed link. */
export const linkToken = (text: string) => /\/([0-9a-f]{64})\b/.exec(text)![1]!;

/** A logger at trace level whose lines the test reads. */
export function capturedLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const buffer = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { logger: createLogger('trace', buffer), lines };
}
