import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safePost, type SafeHttpOptions } from '../../../shared/net/safe-http.ts';
import {
  selfSignedCertificate,
  startHttpsReceiver,
  type HttpsReceiver,
} from '../../helpers/https-receiver.ts';

/*
 * shared/net/safe-http.ts, the outbound HTTP of hook deliveries and Send webhook actions,
 * against a local HTTPS receiver: TLS trust, the allowlist, the connect-time address
 * check (a name that changes its answer after the check), redirects, the deadline and
 * the response cap.
 */

let receiver: HttpsReceiver;
let ca: string;

beforeAll(async () => {
  receiver = await startHttpsReceiver();
  ca = (await selfSignedCertificate()).cert;
});
afterAll(async () => receiver?.close());

const options = (extra: Partial<SafeHttpOptions> = {}): SafeHttpOptions => ({
  allowlist: ['127.0.0.1', 'localhost'],
  ca,
  ...extra,
});
const post = (path: string, extra: Partial<SafeHttpOptions> = {}, url = `${receiver.url}${path}`) =>
  safePost(
    { url, headers: { 'content-type': 'application/json' }, body: '{"hello":"world"}' },
    options(extra),
  );
const requestsTo = (path: string) => receiver.requests.filter((request) => request.path === path);

describe('safePost', () => {
  it('POSTs the body to an allowlisted HTTPS host with a trusted certificate', async () => {
    receiver.respondWith({ status: 201, headers: { 'x-answer': 'yes' }, body: 'created' });
    const outcome = await post('/plain?x=1');
    expect(outcome).toMatchObject({
      kind: 'response',
      status: 201,
      body: 'created',
      truncated: false,
      redirects: 0,
    });
    const [request] = requestsTo('/plain?x=1');
    expect(request!.method).toBe('POST');
    expect(request!.body).toBe('{"hello":"world"}');
    expect(request!.headers['content-length']).toBe('17');
  });

  it('an untrusted certificate is a failure (nothing trusted besides Node’s store without the test CA)', async () => {
    const outcome = await post('/untrusted', { ca: undefined });
    expect(outcome).toMatchObject({ kind: 'failed', reason: 'TLS certificate not trusted' });
  });

  it('loopback, private and internal targets are refused unless allowlisted; HTTPS is always required', async () => {
    for (const url of [
      `https://127.0.0.1:${receiver.port}/x`,
      `https://[::1]:${receiver.port}/x`,
      `https://10.0.0.1:${receiver.port}/x`,
      `https://169.254.169.254/latest/meta-data`,
      `https://0x7f000001:${receiver.port}/x`,
      `https://localhost:${receiver.port}/x`,
    ]) {
      const outcome = await post('', { allowlist: [] }, url);
      expect(outcome, url).toMatchObject({ kind: 'refused', reason: 'private or internal address' });
    }
    expect(await post('', {}, `http://127.0.0.1:${receiver.port}/x`)).toMatchObject({
      kind: 'refused',
      reason: 'URL is not HTTPS',
    });
    expect(requestsTo('/x')).toHaveLength(0);
  });

  it('a name that resolves to a private address is refused, at check time and at connect time (rebinding)', async () => {
    const resolveTo = (address: string) => async () => [address];
    expect(
      await post(
        '',
        { allowlist: [], resolve: resolveTo('127.0.0.1') },
        `https://hooks.acme-test.com:${receiver.port}/a`,
      ),
    ).toMatchObject({
      kind: 'refused',
      reason: 'private or internal address',
    });
    // Public when checked, loopback when connecting: the connect-time lookup refuses it.
    let lookups = 0;
    const rebinding = async () => (++lookups === 1 ? ['93.184.216.34'] : ['127.0.0.1']);
    const outcome = await post(
      '',
      { allowlist: [], resolve: rebinding },
      `https://hooks.acme-test.com:${receiver.port}/rebound`,
    );
    expect(outcome).toMatchObject({ kind: 'refused', reason: 'private or internal address' });
    expect(lookups).toBe(2);
    expect(requestsTo('/rebound')).toHaveLength(0);
    expect(requestsTo('/a')).toHaveLength(0);
  });

  it('redirects: 307/308 repeat the POST, 303 continues with a GET; every hop is checked again', async () => {
    receiver.respondWith(
      { status: 308, headers: { location: '/second' } },
      { status: 303, headers: { location: `https://localhost:${receiver.port}/third` } },
    );
    const outcome = await post('/first');
    expect(outcome).toMatchObject({
      kind: 'response',
      status: 200,
      redirects: 2,
      url: `https://localhost:${receiver.port}/third`,
    });
    expect(requestsTo('/second')[0]).toMatchObject({ method: 'POST', body: '{"hello":"world"}' });
    expect(requestsTo('/third')[0]).toMatchObject({ method: 'GET', body: '' });
    expect(requestsTo('/third')[0]!.headers['content-type']).toBeUndefined();

    receiver.respondWith({
      status: 302,
      headers: { location: `https://127.0.0.2:${receiver.port}/private` },
    });
    expect(await post('/to-private')).toMatchObject({
      kind: 'refused',
      reason: 'redirect refused: private or internal address',
      redirects: 1,
    });
    receiver.respondWith({
      status: 307,
      headers: { location: `http://localhost:${receiver.port}/insecure` },
    });
    expect(await post('/to-http')).toMatchObject({
      kind: 'refused',
      reason: 'redirect refused: URL is not HTTPS',
    });
    expect(requestsTo('/insecure')).toHaveLength(0);
  });

  it('more than 5 redirects is a failure', async () => {
    receiver.fallback = (request) =>
      request.path.startsWith('/loop') ? { status: 307, headers: { location: '/loop' } } : { status: 200 };
    expect(await post('/loop')).toMatchObject({ kind: 'failed', reason: 'more than 5 redirects' });
    expect(requestsTo('/loop')).toHaveLength(6);
    receiver.fallback = { status: 200 };
  });

  it('the wait for an answer is capped (10 seconds by default)', async () => {
    receiver.respondWith({ status: 200, delayMs: 1500 });
    const started = Date.now();
    expect(await post('/slow', { timeoutMs: 500 })).toMatchObject({
      kind: 'failed',
      reason: 'no answer within 1 second',
    });
    expect(Date.now() - started).toBeLessThan(1400);
  });

  it('at most 64 KiB of an answer is read; the status still counts', async () => {
    receiver.respondWith({ status: 200, body: 'x'.repeat(300 * 1024) });
    const outcome = await post('/big');
    expect(outcome).toMatchObject({ kind: 'response', status: 200, truncated: true });
    expect(outcome.kind === 'response' && outcome.body.length).toBe(64 * 1024);
  });

  it('a closed port is a failure', async () => {
    const closed = await startHttpsReceiver();
    const url = `${closed.url}/gone`;
    await closed.close();
    expect(await post('', {}, url)).toMatchObject({ kind: 'failed', reason: 'connection refused' });
  });
});
