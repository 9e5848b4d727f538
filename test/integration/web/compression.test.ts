import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressAnswers } from '../../../shared/http/compression.ts';
import { SECRET_ANSWER } from '../../../shared/http/secret-answer.ts';
import { webRoutes } from '../../../services/web/web-routes.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';

/**
 * What goes over the wire compressed, over real HTTP with the raw bytes read (fetch would
 * decode them): the pages and files as the build compressed them (a fake build with its .br
 * and .gz siblings stands in for dist), JSON and CSV answers from 1 KiB as the browser
 * accepts, and never an answer that carries a secret.
 */

const INDEX = `<!doctype html><html><head><title>Form</title></head><body>${'<p>form</p>'.repeat(40)}</body></html>`;
const SCRIPT = `console.log(${JSON.stringify('form '.repeat(200))});`;
const PLAIN_SCRIPT = `console.log(${JSON.stringify('plain '.repeat(200))});`;

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(url: string, acceptEncoding?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const headers = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
    httpRequest(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

const decoded = ({ headers, body }: RawAnswer) =>
  headers['content-encoding'] === 'br'
    ? brotliDecompressSync(body)
    : headers['content-encoding'] === 'gzip'
      ? gunzipSync(body)
      : body;

let dist: string;
const apps: FastifyInstance[] = [];
let service: TestService;

async function listen(app: FastifyInstance): Promise<string> {
  apps.push(app);
  return app.listen({ port: 0, host: '127.0.0.1' });
}

beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'compressed-dist-'));
  await mkdir(join(dist, 'assets'));
  const withSiblings = async (path: string, text: string) => {
    await writeFile(path, text);
    await writeFile(`${path}.br`, brotliCompressSync(text));
    await writeFile(`${path}.gz`, gzipSync(text));
  };
  await withSiblings(join(dist, 'index.html'), INDEX);
  await withSiblings(join(dist, 'assets', 'app-1a2b.js'), SCRIPT);
  await writeFile(join(dist, 'assets', 'plain-3c4d.js'), PLAIN_SCRIPT);
  service = await startTestService();
});

afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  await service?.stop();
  await rm(dist, { recursive: true, force: true });
});

describe('pages and files, compressed at build', () => {
  it('answer the page brotli or gzip as accepted, the same page decoded, varying on Accept-Encoding', async () => {
    const url = await listen(await pageApp());
    const brotli = await get(`${url}/f/${'ab'.repeat(32)}`, 'gzip, deflate, br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotli.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(brotli.headers['cache-control']).toBe('no-store');
    expect(brotli.body.length).toBeLessThan(Buffer.byteLength(INDEX));
    expect(decoded(brotli).toString()).toBe(INDEX);

    const gzip = await get(`${url}/workspace/sign-in`, 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(decoded(gzip).toString()).toBe(INDEX);

    const identity = await get(`${url}/f/${'ab'.repeat(32)}`);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.headers.vary).toMatch(/accept-encoding/i);
    expect(identity.body.toString()).toBe(INDEX);
  });

  it('send a hashed file compressed and immutable, and one without siblings as it is', async () => {
    const url = await listen(await pageApp());
    const script = await get(`${url}/web/assets/app-1a2b.js`, 'br, gzip');
    expect(script.status).toBe(200);
    expect(script.headers['content-encoding']).toBe('br');
    expect(script.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.headers.vary).toMatch(/accept-encoding/i);
    expect(decoded(script).toString()).toBe(SCRIPT);

    const gzip = await get(`${url}/web/assets/app-1a2b.js`, 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(decoded(gzip).toString()).toBe(SCRIPT);

    const plain = await get(`${url}/web/assets/plain-3c4d.js`, 'br, gzip');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(PLAIN_SCRIPT);
  });
});

describe('JSON answers', () => {
  it('from 1 KiB go brotli or gzip as accepted, and decode to the same document', async () => {
    const identity = await get(`${service.url}/openapi.json`);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.length).toBeGreaterThan(1024);
    const document = JSON.parse(identity.body.toString());

    const brotli = await get(`${service.url}/openapi.json`, 'gzip, deflate, br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotli.body.length).toBeLessThan(identity.body.length / 4);
    expect(JSON.parse(decoded(brotli).toString())).toEqual(document);

    const gzip = await get(`${service.url}/openapi.json`, 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decoded(gzip).toString())).toEqual(document);
  });

  it('below 1 KiB, and every answer of a route that carries a secret, go as they are', async () => {
    const app = Fastify();
    await compressAnswers(app);
    const large = { items: Array.from({ length: 200 }, (_, index) => ({ index, name: `item ${index}` })) };
    app.get('/large', async () => large);
    app.get('/small', async () => ({ ok: true }));
    app.get('/secret', { config: SECRET_ANSWER }, async () => ({ ...large, token: 'cd'.repeat(32) }));
    const csv = 'a,b\r\n'.repeat(1000);
    app.get('/csv', async (_request, reply) =>
      reply.type('text/csv; charset=utf-8').send(Readable.from([csv])),
    );
    const url = await listen(app);

    const compressed = await get(`${url}/large`, 'br');
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decoded(compressed).toString())).toEqual(large);
    const export_ = await get(`${url}/csv`, 'gzip');
    expect(export_.headers['content-encoding']).toBe('gzip');
    expect(decoded(export_).toString()).toBe(csv);

    for (const path of ['/small', '/secret']) {
      const answer = await get(`${url}${path}`, 'br, gzip');
      expect(answer.status, path).toBe(200);
      expect(answer.headers['content-encoding'], path).toBeUndefined();
    }
    const secret = await get(`${url}/secret`, 'br');
    expect(JSON.parse(secret.body.toString()).token).toBe('cd'.repeat(32));
  });
});

async function pageApp(): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(webRoutes, { distDir: dist, workspaceDistDir: dist });
  return app;
}
