import nodemailer, { type Transporter } from 'nodemailer';
import type { ServiceContext } from '../context.ts';
import { oneAtATime } from '../hooks/outbound.ts';
import type { DuePass } from '../work/due-pass.ts';

/**
 * The mailer: sends the rows of mail_outbox (invite, reminder, automation, notification)
 * over SMTP with nodemailer when SMTP_URL is set.
 *
 * - Without SMTP_URL nothing is sent: the outbox is the record and rows stay `queued`.
 * - A message is plain text: From `"<from_name>" <no-reply@<PUBLIC_URL's host>>` (the
 *   host of a PUBLIC_URL that is an address or a single label becomes `localhost`), To,
 *   Subject, the text as written (line breaks kept), a Message-ID made from the outbox id
 *   (`<id@host>`, the same on every attempt, so a receiver can spot a repeat), and
 *   `Auto-Submitted: auto-generated` (RFC 3834).
 * - Status per message: `sent` once the server accepted it; `failed` when the server
 *   refused it for good (a 5xx reply) or after MAX_MAIL_ATTEMPTS attempts; otherwise it
 *   stays `queued` with `next_attempt_at` (service clock) 1 minute later, doubling:
 *   1, 2, 4, 8, 16, 32, 64 minutes. `attempts` and `last_error` tell the story.
 * - `sendQueuedMail` is a due pass (the scheduler loop every few seconds, and
 *   POST /admin/v1/work/drain). A mailer holds a row with a lease (database clock) while it
 *   talks to the server; a row whose mailer died is sent again when the lease ends.
 */

export const MAX_MAIL_ATTEMPTS = 8;
const BATCH = 20;
const LEASE = "interval '2 minutes'";

interface OutboxRow {
  id: string;
  kind: string;
  to: string;
  from_name: string;
  subject: string;
  text: string;
  attempts: number;
}

const transports = new WeakMap<ServiceContext, Transporter>();

function transportFor(context: ServiceContext, smtpUrl: string): Transporter {
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
  context: ServiceContext,
  now: Date = context.clock.now(),
  signal?: AbortSignal,
): Promise<number> {
  const smtpUrl = context.settings.SMTP_URL;
  if (!smtpUrl) return Promise.resolve(0);
  return oneAtATime(context, 'mailer', async () => {
    const transport = transportFor(context, smtpUrl);
    const domain = mailDomain(context.settings.PUBLIC_URL);
    let attempted = 0;
    while (!signal?.aborted) {
      const { rows } = await context.pool.query<OutboxRow>(
        `update mail_outbox set leased_until = now() + ${LEASE}
         where id in (
           select id from mail_outbox
           where status = 'queued' and (next_attempt_at is null or next_attempt_at <= $1)
             and (leased_until is null or leased_until < now())
           order by created_at, seq
           limit $2
           for update skip locked)
         returning id, kind, "to", from_name, subject, text, attempts`,
        [now, BATCH],
      );
      if (rows.length === 0) return attempted;
      for (const [index, row] of rows.entries()) {
        if (signal?.aborted) {
          // Stopping: the rows not tried are released for the next pass.
          await releaseLeases(context, rows.slice(index));
          return attempted;
        }
        await sendOne(context, transport, domain, row);
        attempted++;
      }
    }
    return attempted;
  });
}

export const mailerPass: DuePass = {
  name: 'mailer',
  runDue: (context, signal) => sendQueuedMail(context, undefined, signal),
};

async function releaseLeases(context: ServiceContext, rows: OutboxRow[]): Promise<void> {
  await context.pool.query('update mail_outbox set leased_until = null where id = any($1::uuid[])', [
    rows.map((row) => row.id),
  ]);
}

async function sendOne(context: ServiceContext, transport: Transporter, domain: string, row: OutboxRow) {
  const attemptAt = context.clock.now();
  const attempts = row.attempts + 1;
  try {
    await transport.sendMail({
      from: { name: row.from_name, address: `no-reply@${domain}` },
      to: row.to,
      subject: row.subject,
      text: row.text,
      messageId: `<${row.id}@${domain}>`,
      headers: { 'Auto-Submitted': 'auto-generated' },
    });
    await context.pool.query(
      `update mail_outbox set status = 'sent', attempts = $2, sent_at = $3, last_error = null,
              next_attempt_at = null, leased_until = null
       where id = $1`,
      [row.id, attempts, attemptAt],
    );
  } catch (error) {
    const { responseCode, code, message } = error as {
      responseCode?: number;
      code?: string;
      message?: string;
    };
    const permanent = typeof responseCode === 'number' && responseCode >= 500;
    const failed = permanent || attempts >= MAX_MAIL_ATTEMPTS;
    const text = (responseCode ? `SMTP ${responseCode}: ` : code ? `${code}: ` : '') + (message ?? 'error');
    context.logger.warn({ mailId: row.id, kind: row.kind, attempts, failed, error: text }, 'mail not sent');
    await context.pool.query(
      `update mail_outbox set status = $2, attempts = $3, last_error = $4, next_attempt_at = $5, leased_until = null
       where id = $1`,
      [
        row.id,
        failed ? 'failed' : 'queued',
        attempts,
        text.slice(0, 1000),
        failed ? null : new Date(attemptAt.getTime() + 60_000 * 2 ** (attempts - 1)),
      ],
    );
  }
}
