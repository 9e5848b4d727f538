import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../services/app/http-app.ts';
import type { ServiceContext } from '../../../services/app/context.ts';
import { createContext, stopContext } from '../../../services/app/runtime.ts';
import { loadSettings } from '../../../shared/config/settings.ts';
import { createPool } from '../../../shared/db/pool.ts';
import { PostgresEventStore } from '../../../shared/event-store/postgres-event-store.ts';
import type { Logger } from '../../../shared/logging/logger.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';
import { startTestService, TEST_PERSONAL_DATA_KEK, type TestService } from '../../helpers/service.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  req?: unknown;
  res?: unknown;
}

/** A pino logger whose JSON lines are kept for the test to read. */
function capturingLogger(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() !== '') lines.push(JSON.parse(line) as LogLine);
      }
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

/** A plain request on its own connection (no keep-alive), resolving with status, headers and body. */
function request(url: string, path: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      const call = http.get(`${url}${path}`, { agent: false }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      });
      call.on('error', reject);
    },
  );
}

function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('health checks (startTestService)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service?.stop());

  it('GET /healthz answers 200 while the process is alive', async () => {
    const response = await request(service.url, '/healthz');
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ status: 'ok' });
    expect(response.headers['x-request-id']).toMatch(UUID);
  });

  it('GET /readyz answers 200 when the database and the event store answer', async () => {
    const response = await request(service.url, '/readyz');
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ status: 'ready', database: 'ok', event_store: 'ok' });
  });

  it('GET /readyz answers 503 when the database is unreachable', async () => {
    const url = `postgres://nobody:nothing@127.0.0.1:${await closedPort()}/nowhere`;
    const pool = createPool(url, 1);
    const eventStore = new PostgresEventStore(pool, url);
    const app = await buildApp({ ...service.context, pool, eventStore });
    try {
      const response = await app.inject({ method: 'GET', url: '/readyz' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        status: 'not_ready',
        database: 'unreachable',
        event_store: 'unreachable',
      });
      expect(response.headers['x-request-id']).toMatch(UUID);
      // Alive all the same.
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await eventStore.close();
      await pool.end();
    }
  });

  it('GET /readyz answers 503 when only the event store is unreachable', async () => {
    const eventStore = Object.create(service.context.eventStore) as ServiceContext['eventStore'];
    Object.defineProperty(eventStore, 'ping', {
      value: () => Promise.reject(new Error('connection refused')),
    });
    const app = await buildApp({ ...service.context, eventStore });
    try {
      const response = await app.inject({ method: 'GET', url: '/readyz' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ status: 'not_ready', database: 'ok', event_store: 'unreachable' });
    } finally {
      await app.close();
    }
  });
});

describe('request ids, logging and graceful shutdown (the app over real HTTP)', () => {
  let database: TestDatabase;
  let context: ServiceContext;
  let app: FastifyInstance;
  let url: string;
  let port: number;
  let lines: LogLine[];
  let releaseSlow!: () => void;
  let slowEntered!: Promise<void>;

  beforeAll(async () => {
    database = await createTestDatabase();
    const captured = capturingLogger();
    lines = captured.lines;
    const settings = loadSettings({
      PORT: '0',
      LOG_LEVEL: 'info',
      DATABASE_URL: database.url,
      PERSONAL_DATA_KEK: TEST_PERSONAL_DATA_KEK,
    });
    context = await createContext(settings, captured.logger, database.pool, database.url);
    await context.projections.start();
    app = await buildApp(context);
    // Test routes, registered before listen.
    app.get('/test/logs', async (request) => {
      request.log.info({ step: 'inside' }, 'handler says hello');
      return { ok: true };
    });
    app.get('/test/boom', async () => {
      throw new Error('boom');
    });
    let entered!: () => void;
    slowEntered = new Promise<void>((resolve) => (entered = resolve));
    const gate = new Promise<void>((resolve) => (releaseSlow = resolve));
    app.get('/test/slow', async () => {
      entered();
      await gate;
      return { finished: true };
    });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(url).port);
  });
  afterAll(async () => {
    releaseSlow?.();
    await app?.close();
    if (context) await stopContext(context); // ends database.pool
    await database?.drop();
  });

  it('puts an X-Request-Id on every response, equal to the reqId of every log line of that request', async () => {
    const paths = ['/healthz', '/readyz', '/test/logs', '/test/boom', '/no/such/route', '/openapi.json'];
    const responses = await Promise.all(paths.map((path) => request(url, path)));
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 500, 404, 200]);
    const ids = responses.map((response) => response.headers['x-request-id'] as string);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(paths.length);

    // Error bodies carry the same id.
    expect(JSON.parse(responses[3]!.body)).toMatchObject({ code: 'internal_error', request_id: ids[3] });
    expect(JSON.parse(responses[4]!.body)).toMatchObject({ code: 'not_found', request_id: ids[4] });

    for (const [index, id] of ids.entries()) {
      const messages = lines.filter((line) => line.reqId === id).map((line) => line.msg);
      expect(messages, paths[index]).toContain('incoming request');
      expect(messages, paths[index]).toContain('request completed');
    }
    const own = lines.filter((line) => line.reqId === ids[2]);
    expect(own.map((line) => line.msg)).toEqual([
      'incoming request',
      'handler says hello',
      'request completed',
    ]);
    expect(lines.filter((line) => line.reqId === ids[3]).map((line) => line.msg)).toContain('request failed');
    // Every line about a request names its request.
    for (const line of lines.filter((l) => l.req !== undefined || l.res !== undefined)) {
      expect(line.reqId).toMatch(UUID);
    }
  });

  it('on close: stops accepting connections, finishes the request in flight, closes idle keep-alive sockets', async () => {
    // An idle keep-alive connection.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const idleClosed = new Promise<void>((resolve, reject) => {
      const call = http.get(`${url}/healthz`, { agent }, (response) => {
        response.resume();
        response.on('end', () => call.socket?.once('close', () => resolve()));
      });
      call.on('error', reject);
    });
    // A request in flight.
    const inFlight = request(url, '/test/slow');
    await slowEntered;

    let closed = false;
    const closing = app.close().then(() => (closed = true));
    for (let attempt = 0; (await connects(port)) && attempt < 100; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await connects(port), 'new connections are refused').toBe(false);
    await expect(request(url, '/healthz')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await idleClosed;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(closed, 'close waits for the request in flight').toBe(false);

    releaseSlow();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ finished: true });
    expect(response.headers['x-request-id']).toMatch(UUID);
    await closing;
    expect(closed).toBe(true);
    agent.destroy();

    // Then the background work stops with its checkpoints stored, and the pools close.
    const id = randomUUID();
    const appended = await context.eventStore.append(
      `shutdown-${id}`,
      [{ type: 'noted', data: {} }],
      'no_stream',
    );
    expect(await context.projections.waitForPosition(appended.position)).toBe(true);
    await stopContext(context);
    const check = createPool(database.url, 1);
    try {
      const checkpoints = await check.query<{ position: string }>('select position from checkpoints');
      for (const row of checkpoints.rows)
        expect(BigInt(row.position)).toBeGreaterThanOrEqual(appended.position);
    } finally {
      await check.end();
    }
    context = undefined as unknown as ServiceContext;
  });
});

// The logger type the app takes is pino's; keep the capturing logger assignable to it.
void ((logger: Logger) => logger as FastifyBaseLogger);
