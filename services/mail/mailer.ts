import { openTextColumns, sealTextFor } from '../../shared/privacy/sealed-columns.ts';
import nodemailer, { type Transporter } from 'nodemailer';
import { oldestFirst } from '../../shared/work-queue/claim-strategies.ts';
import { workInLanes } from '../../shared/work-queue/lanes.ts';
import {
  claimDue,
  complete,
  defineWorkQueue,
  endAttempt,
  nextStep,
  release,
  type RetryPolicy,
} from '../../shared/work-queue/work-queue.ts';
import type { Platform } from '../../shared/app-deps.ts';
import { oneAtATime } from '../../shared/work-queue/one-at-a-time.ts';
import type { DuePass } from '../../shared/work-queue/due-pass.ts';
import { withoutLinkTokens } from './sent-mail.ts';

/** What sending the queued mail uses. */
export type MailerDeps = Pick<Platform, 'clock' | 'settings' | 'pool' | 'logger' | 'vault'>;

/**
 * The mailer: sends the rows of mail_outbox (invite, reminder, automation, notification)
 * over SMTP with nodemailer when SMTP_URL is set.
 *
 * - Without SMTP_URL nothing is sent: the outbox is the record and rows stay `queued`.
 * - A message is plain text, or multipart/alternative when its row has an html part (the
 *   client emails, services/onboardings/client-emails/): From `"<from_name>" <no-reply@<PUBLIC_URL's host>>` (the
 *   host of a PUBLIC_URL that is an address or a single label becomes `localhost`), To,
 *   Subject, the text as written (line breaks kept) and the html, a Message-ID made from the outbox id
 *   (`<id@host>`, the same on every attempt, so a receiver can spot a repeat), and
 *   `Auto-Submitted: auto-generated` (RFC 3834).
 * - Status per message: `sent` once the server accepted it; `failed` when the server
 *   refused it for good (a 5xx reply) or after MAX_MAIL_ATTEMPTS attempts; otherwise it
 *   stays `queued` with `next_attempt_at` (service clock) 1 minute later, doubling:
 *   1, 2, 4, 8, 16, 32, 64 minutes. `attempts` and `last_error` tell the story.
 * - A sent message keeps no usable link token (./sent-mail.ts, migrations 095, 138): its
 *   text and html keep a reference in place of each token (sealed again when the mail is
 *   about a client), and an invite's client token is kept sealed
 *   with the client's key (link_token) for the reminders and the operator's link.
 * - `sendQueuedMail` is a due pass (the scheduler loop every few seconds, and
 *   POST /admin/v1/work/drain) over the work queue of shared/work-queue/: it claims a
 *   batch, oldest first, and sends one message at a time. A mailer holds a row with a
 *   lease (database clock) while it talks to the server; a row whose mailer died is sent
 *   again when the lease ends; on stop, the claimed rows not tried are released.
 */

export const MAX_MAIL_ATTEMPTS = 8;
const BATCH = 20;

const mailRetries: RetryPolicy = {
  maxAttempts: MAX_MAIL_ATTEMPTS,
  nextAttemptAt: (attemptAt, attempts) => new Date(attemptAt.getTime() + 60_000 * 2 ** (attempts - 1)),
};

/** The outbox as a work queue (shared/work-queue/work-queue.ts). */
const outbox = defineWorkQueue({
  table: 'mail_outbox',
  due: "$row.status = 'queued' and ($row.next_attempt_at is null or $row.next_attempt_at <= $1)",
  lease: '2 minutes',
  claim: oldestFirst('$row.created_at, $row.seq'),
  returning: 'id, team_id, kind, "to", from_name, subject, text, html, onboarding_id, attempts, client_id',
  states: { done: { status: 'sent' }, retrying: { status: 'queued' }, failed: { status: 'failed' } },
  retries: mailRetries,
});

interface OutboxRow {
  id: string;
  team_id: string;
  kind: string;
  onboarding_id: string | null;
  to: string;
  from_name: string;
  subject: string;
  text: string;
  /** The HTML part (client emails); null for plain-text mail. */
  html: string | null;
  attempts: number;
  /** The client the mail is about: "to", subject, text and html are sealed with its key. */
  client_id: string | null;
}

/** One transport per running service (keyed like ../hooks/outbound.ts keeps its passes). */
const transports = new WeakMap<object, Transporter>();

function transportFor(context: object, smtpUrl: string): Transporter {
  let transport = transports.get(context);
  if (!transport) {
    transport = nodemailer.createTransport(smtpUrl, {
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    } as never);
    transports.set(context, transport);
  }
  return transport;
}

/** The host part of sender addresses and Message-IDs. */
export function mailDomain(publicUrl: string): string {
  let host = '';
  try {
    host = new URL(publicUrl).hostname.toLowerCase();
  } catch {
    // fall through
  }
  return /[a-z]/.test(host) && host.includes('.') && !host.includes(':') ? host : 'localhost';
}

/** Sends every queued message that is due; resolves to the number of messages attempted. */
export function sendQueuedMail(
  context: MailerDeps,
  now: Date = context.clock.now(),
  signal?: AbortSignal,
): Promise<number> {
  const smtpUrl = context.settings.SMTP_URL;
  if (!smtpUrl) return Promise.resolve(0);
  return oneAtATime(context, 'mailer', () => {
    const transport = transportFor(context, smtpUrl);
    const domain = mailDomain(context.settings.PUBLIC_URL);
    return workInLanes<OutboxRow>({
      claim: (slots) => claimDue<OutboxRow>(context.pool, outbox, now, slots),
      work: (row) =>
        sendOne(context, transport, domain, row).catch((error: unknown) =>
          context.logger.error({ err: error, mailId: row.id }, 'could not record a mail attempt'),
        ),
      // Stopping: the rows not tried are released for the next pass.
      release: (rows) =>
        release(
          context.pool,
          outbox,
          rows.map((row) => row.id),
        ),
      lanes: 1,
      batch: BATCH,
      pollMs: 0,
      budgetMs: Infinity,
      signal,
    });
  });
}

export const mailerPass: DuePass<MailerDeps> = {
  name: 'mailer',
  runDue: (context: MailerDeps, signal?: AbortSignal) => sendQueuedMail(context, undefined, signal),
};

async function sendOne(context: MailerDeps, transport: Transporter, domain: string, sealed: OutboxRow) {
  const attemptAt = context.clock.now();
  const attempts = sealed.attempts + 1;
  const [row] = await openTextColumns(context.vault, [sealed], ['to', 'subject', 'text', 'html']);
  if (row!.to === null || row!.subject === null || row!.text === null) {
    // The client's key is gone: the mail can never be read, let alone sent.
    const step = nextStep(mailRetries, { kind: 'stop' }, attempts, attemptAt);
    await endAttempt(context.pool, outbox, sealed.id, step, {
      attempts,
      columns: { last_error: 'client erased' },
    });
    return;
  }
  await sendOpened(
    context,
    transport,
    domain,
    { ...row!, to: row!.to, subject: row!.subject, text: row!.text, html: row!.html },
    attempts,
    attemptAt,
  );
}

async function sendOpened(
  context: MailerDeps,
  transport: Transporter,
  domain: string,
  row: OutboxRow,
  attempts: number,
  attemptAt: Date,
) {
  try {
    await transport.sendMail({
      from: { name: row.from_name, address: `no-reply@${domain}` },
      to: row.to,
      subject: row.subject,
      text: row.text,
      ...(row.html === null ? {} : { html: row.html }),
      messageId: `<${row.id}@${domain}>`,
      headers: { 'Auto-Submitted': 'auto-generated' },
    });
    const kept = withoutLinkTokens(row.text);
    const keptHtml = row.html === null ? null : withoutLinkTokens(row.html).text;
    const seal = (value: string) =>
      row.client_id ? sealTextFor(context.vault, row.team_id, row.client_id, value) : value;
    await complete(context.pool, outbox, row.id, {
      attempts,
      columns: {
        sent_at: attemptAt,
        last_error: null,
        text: await seal(kept.text),
        html: keptHtml === null ? null : await seal(keptHtml),
        link_token: await sealedInviteToken(context, row, kept.tokens),
      },
    });
  } catch (error) {
    const { responseCode, code, message } = error as {
      responseCode?: number;
      code?: string;
      message?: string;
    };
    const permanent = typeof responseCode === 'number' && responseCode >= 500;
    const step = nextStep(mailRetries, permanent ? { kind: 'stop' } : { kind: 'retry' }, attempts, attemptAt);
    const text = (responseCode ? `SMTP ${responseCode}: ` : code ? `${code}: ` : '') + (message ?? 'error');
    context.logger.warn(
      { mailId: row.id, kind: row.kind, attempts, failed: step.state === 'failed', error: text },
      'mail not sent',
    );
    await endAttempt(context.pool, outbox, row.id, step, {
      attempts,
      columns: { last_error: text.slice(0, 1000) },
    });
  }
}

/**
 * An invite's client token, sealed with its client's personal data key (the reminders and
 * the operator's link read it while the link works). Null for other mail, and when the
 * onboarding's client is not known (yet) or erased: the link then stays unreadable.
 */
async function sealedInviteToken(context: MailerDeps, row: OutboxRow, tokens: string[]) {
  const [token] = tokens;
  if (row.kind !== 'invite' || !row.onboarding_id || !token) return null;
  const { rows } = await context.pool.query<{ client_id: string }>(
    'select client_id from onboardings where id = $1 and client_erased_at is null',
    [row.onboarding_id],
  );
  const clientId = rows[0]?.client_id;
  return clientId ? context.vault.seal(row.team_id, clientId, token) : null;
}
