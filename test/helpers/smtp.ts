import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

/**
 * A real SMTP server inside the test process (smtp-server), for the mailer tests. Plain
 * SMTP on 127.0.0.1 without STARTTLS or authentication; every accepted message is kept
 * with its envelope, its headers, its decoded text and, for multipart/alternative mail, its
 * decoded HTML part (`text` is then the text/plain part).
 *
 *   const smtp = await startSmtpServer();
 *   const service = await startTestService({ SMTP_URL: smtp.url });
 *   ... smtp.messages[0].subject, smtp.messages[0].text, smtp.messages[0].header('from')
 *
 * `rejectNext(code, message)` makes the server refuse the next messages (at DATA end).
 */

export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  raw: string;
  /** Lowercased names; unfolded, with encoded words decoded. */
  headers: Map<string, string>;
  header(name: string): string | undefined;
  subject: string;
  /** The text body (of a multipart mail: its text/plain part), transfer encoding undone, CRLF as \n. */
  text: string;
  /** The text/html part of a multipart mail, decoded; undefined for a single-part mail. */
  html?: string;
}

export interface SmtpTestServer {
  url: string;
  messages: ReceivedMail[];
  rejectNext(times: number, code: number, message?: string): void;
  /** Resolves once `count` messages arrived (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

export async function startSmtpServer(): Promise<SmtpTestServer> {
  const messages: ReceivedMail[] = [];
  const rejections: { code: number; message: string }[] = [];
  const options: SMTPServerOptions = {
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const rejection = rejections.shift();
        if (rejection) {
          callback(Object.assign(new Error(rejection.message), { responseCode: rejection.code }));
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        messages.push(
          parseMail(raw, {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          }),
        );
        callback();
      });
    },
  };
  const server = new SMTPServer(options);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    rejectNext(times, code, message = 'Refused by the test server') {
      for (let index = 0; index < times; index++) rejections.push({ code, message });
    },
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} mails, got ${messages.length}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return messages;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Enough of RFC 5322 / MIME for the mails nodemailer writes: single-part text, or multipart/alternative text and HTML. */
export function parseMail(raw: string, envelope: ReceivedMail['envelope']): ReceivedMail {
  const { headers, body } = parsePart(raw);
  const boundary = /^multipart\/[^;]+;.*boundary="?([^";]+)"?/i.exec(headers.get('content-type') ?? '')?.[1];
  const parts = boundary
    ? raw
        .split(`--${boundary}`)
        .slice(1, -1)
        .map((part) => parsePart(part.replace(/^\r\n/, '').replace(/\r\n$/, '')))
    : [];
  const partOf = (type: string) =>
    parts.find((part) => (part.headers.get('content-type') ?? '').toLowerCase().startsWith(type));
  return {
    envelope,
    raw,
    headers,
    header: (name) => headers.get(name.toLowerCase()),
    subject: headers.get('subject') ?? '',
    text: boundary ? (partOf('text/plain')?.body ?? '') : body,
    html: boundary ? partOf('text/html')?.body : undefined,
  };
}

/** One MIME entity: its headers and its body with the transfer encoding undone. */
function parsePart(raw: string): { headers: Map<string, string>; body: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = split < 0 ? raw : raw.slice(0, split);
  const bodyRaw = split < 0 ? '' : raw.slice(split + 4);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    headers.set(line.slice(0, colon).trim().toLowerCase(), decodeWords(line.slice(colon + 1).trim()));
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  let text: string;
  if (encoding === 'quoted-printable') {
    text = quotedPrintable(bodyRaw.replace(/=\r\n/g, ''));
  } else if (encoding === 'base64') {
    text = Buffer.from(bodyRaw.replace(/\s+/g, ''), 'base64').toString('utf8');
  } else {
    text = bodyRaw;
  }
  return { headers, body: text.replace(/\r\n/g, '\n') };
}

/** RFC 2047 encoded words (=?UTF-8?Q?...?= and =?UTF-8?B?...?=). */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, kind: string, data: string) => {
      if (kind.toUpperCase() === 'B') return Buffer.from(data, 'base64').toString('utf8');
      return quotedPrintable(data.replace(/_/g, ' '));
    });
}

/** =XX escapes to bytes, then UTF-8. */
function quotedPrintable(input: string): string {
  const bytes: number[] = [];
  for (let index = 0; index < input.length; index++) {
    const char = input[index]!;
    const hex = input.slice(index + 1, index + 3);
    if (char === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      index += 2;
    } else {
      bytes.push(...Buffer.from(char, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
