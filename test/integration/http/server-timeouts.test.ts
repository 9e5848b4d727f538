import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CONNECTIONS_PER_IP, SERVER_TIMEOUTS } from '../../../shared/http/connection-limits.ts';
import { ADMIN_TOKEN, startTestService, type TestService } from '../../helpers/service.ts';

/**
 * Slow and idle sockets are closed by the server's timeouts, and one address cannot hold
 * more than MAX_CONNECTIONS_PER_IP connections: a few clients cannot use up the process's
 * file descriptors by opening sockets and saying nothing, or trickling a request.
 */

let service: TestService;
let port: number;

beforeAll(async () => {
  service = await startTestService();
  port = Number(new URL(service.url).port);
});
afterAll(() => service?.stop());

interface Watched {
  socket: net.Socket;
  /** Resolves when the server closes the socket: after how many ms, with what it answered. */
  closed: Promise<{ afterMs: number; answer: string }>;
}

function connect(): Promise<Watched> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const openedAt = Date.now();
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', () => undefined);
    const closed = new Promise<{ afterMs: number; answer: string }>((done) =>
      socket.on('close', () => done({ afterMs: Date.now() - openedAt, answer })),
    );
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}

describe('server timeouts and connection caps', () => {
  it(`closes a connection beyond ${MAX_CONNECTIONS_PER_IP} from one address at once; the others still work`, async () => {
    const open: Watched[] = [];
    try {
      for (let index = 0; index < MAX_CONNECTIONS_PER_IP; index++) open.push(await connect());
      const excess = await connect();
      const { afterMs, answer } = await excess.closed;
      expect(afterMs).toBeLessThan(1000);
      expect(answer).toBe('');
      // A connection under the cap answers.
      const reply = new Promise<string>((resolve) =>
        open[0]!.socket.once('data', (chunk) => resolve(chunk.toString())),
      );
      open[0]!.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      expect(await reply).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      for (const watched of open) watched.socket.destroy();
      await Promise.all(open.map((watched) => watched.closed));
    }
    // Once the server has seen them closed, the address may connect again.
    let answer = '';
    for (let attempt = 0; attempt < 20 && !answer; attempt++) {
      const again = await connect();
      again.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      answer = (await again.closed).answer;
      if (!answer) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
  });

  it('closes silent sockets, trickled headers and trickled bodies with 408, and idle keep-alive sockets', async () => {
    const silent = await connect();

    const trickledHeaders = await connect();
    trickledHeaders.socket.write('GET /healthz HTTP/1.1\r\n');
    const headerTimer = setInterval(() => trickledHeaders.socket.write('X-Slow: 1\r\n'), 1000);

    const trickledBody = await connect();
    trickledBody.socket.write(
      `POST /admin/v1/work/drain HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
    );
    const bodyTimer = setInterval(() => trickledBody.socket.write(' '), 1000);

    // A keep-alive connection left idle after its request.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const keepAliveClosed = new Promise<number>((resolve, reject) => {
      const call = http.get(`${service.url}/healthz`, { agent }, (response) => {
        response.resume();
        response.on('end', () => {
          const idleFrom = Date.now();
          call.socket!.once('close', () => resolve(Date.now() - idleFrom));
        });
      });
      call.on('error', reject);
    });

    try {
      const idleMs = await keepAliveClosed;
      expect(idleMs).toBeGreaterThanOrEqual(SERVER_TIMEOUTS.keepAliveTimeoutMs - 500);
      expect(idleMs).toBeLessThan(SERVER_TIMEOUTS.keepAliveTimeoutMs + 2000);

      for (const watched of [silent, trickledHeaders]) {
        const { afterMs, answer } = await watched.closed;
        expect(answer).toMatch(/^HTTP\/1\.1 408/);
        expect(afterMs).toBeGreaterThanOrEqual(SERVER_TIMEOUTS.headersTimeoutMs - 500);
        expect(afterMs).toBeLessThan(SERVER_TIMEOUTS.headersTimeoutMs + 3000);
      }

      const { afterMs, answer } = await trickledBody.closed;
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
      expect(afterMs).toBeGreaterThanOrEqual(SERVER_TIMEOUTS.requestTimeoutMs - 500);
      expect(afterMs).toBeLessThan(SERVER_TIMEOUTS.requestTimeoutMs + 3000);
    } finally {
      clearInterval(headerTimer);
      clearInterval(bodyTimer);
      agent.destroy();
      for (const watched of [silent, trickledHeaders, trickledBody]) watched.socket.destroy();
    }
  }, 60_000);
});
