import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * Local HTTPS receivers for hook and webhook tests: a real TLS server on a loopback
 * address with a self-signed certificate for localhost, 127.0.0.1, 127.0.0.2 and ::1
 * (made once per test file with the `openssl` command line; Node cannot issue X.509
 * certificates itself). The service trusts it through
 * `trustCertificatesForTests(context, certificate.cert)` (services/hooks/outbound.ts);
 * hosts must be in HOOK_TARGET_ALLOWLIST to pass the private-address guard.
 *
 *   const receiver = await startHttpsReceiver();
 *   receiver.respondWith({ status: 500 }, { status: 200 });   // answers in turn, then 200
 *   ... receiver.requests[0].json(), receiver.requests[0].headers['idempotency-key']
 */

export interface Certificate {
  key: string;
  cert: string;
}

let certificate: Promise<Certificate> | undefined;

/** One self-signed certificate per test process. */
export function selfSignedCertificate(): Promise<Certificate> {
  certificate ??= (async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'receiver-cert-'));
    try {
      const keyFile = path.join(dir, 'key.pem');
      const certFile = path.join(dir, 'cert.pem');
      await promisify(execFile)('openssl', [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        keyFile,
        '-out',
        certFile,
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:127.0.0.2,IP:::1',
      ]);
      return { key: await readFile(keyFile, 'utf8'), cert: await readFile(certFile, 'utf8') };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  })();
  return certificate;
}

export interface ReceivedRequest {
  method: string;
  /** Path and query. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw header names as sent, in order (case kept). */
  rawHeaderNames: string[];
  body: string;
  json(): any;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Wait this long (ms) before answering. */
  delayMs?: number;
}

export interface HttpsReceiver {
  /** https://<host>:<port> (no trailing slash). */
  url: string;
  host: string;
  port: number;
  requests: ReceivedRequest[];
  /** Answers for the next requests, in turn; once used up every request gets `fallback`. */
  respondWith(...replies: Reply[]): void;
  /** The answer when no queued reply is left (default 200 with {"ok":true}). */
  fallback: Reply | ((request: ReceivedRequest) => Reply);
  close(): Promise<void>;
}

export async function startHttpsReceiver(host = '127.0.0.1'): Promise<HttpsReceiver> {
  const { key, cert } = await selfSignedCertificate();
  const queue: Reply[] = [];
  const requests: ReceivedRequest[] = [];
  const receiver: HttpsReceiver = {
    url: '',
    host,
    port: 0,
    requests,
    respondWith: (...replies) => queue.push(...replies),
    fallback: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' },
    close: async () => undefined,
  };
  const server = https.createServer({ key, cert }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const received: ReceivedRequest = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        rawHeaderNames: request.rawHeaders.filter((_, index) => index % 2 === 0),
        body,
        json: () => JSON.parse(body),
      };
      requests.push(received);
      const reply =
        queue.shift() ??
        (typeof receiver.fallback === 'function' ? receiver.fallback(received) : receiver.fallback);
      setTimeout(() => {
        response.writeHead(reply.status, reply.headers ?? {});
        response.end(reply.body ?? '');
      }, reply.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  receiver.port = port;
  receiver.url = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  receiver.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
