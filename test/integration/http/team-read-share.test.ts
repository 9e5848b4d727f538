import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { takeTeamReadTurn, TeamReadShare } from '../../../shared/http/team-read-share.ts';
import type { SignedInMember } from '../../../shared/http/workspace-request.ts';

/**
 * The workspace API's share hook over real HTTP (shared/http/team-read-share.ts): a team's
 * reads beyond its share wait, another team's do not, and a turn ends when the answer is
 * done, when a stream ends, and when the client goes away mid-answer.
 */
let app: FastifyInstance;
let url: string;
const share = new TeamReadShare(1);
const holds = new Map<string, () => void>();

beforeAll(async () => {
  app = Fastify();
  app.decorateRequest('workspaceSession', null);
  app.addHook('onRequest', async (request) => {
    const team = request.headers['x-team'];
    if (typeof team === 'string') request.workspaceSession = { teamId: team } as SignedInMember;
  });
  app.addHook('onRequest', takeTeamReadTurn(share));
  // Answers once the test lets it go (by the id in the query).
  app.get('/held', async (request) => {
    const { id } = request.query as { id: string };
    await new Promise<void>((resolve) => holds.set(id, resolve));
    return { id };
  });
  app.get('/quick', async () => ({ ok: true }));
  app.post('/write', async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await app?.close();
});

const get = (path: string, team: string, signal?: AbortSignal) =>
  fetch(`${url}${path}`, { headers: { 'x-team': team }, ...(signal && { signal }) });
const until = async (check: () => boolean) => {
  for (let tries = 0; !check(); tries++) {
    if (tries > 200) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe("a team's share of the workspace reads, over HTTP", () => {
  it("makes a team's second read wait for its first, and no other team's read wait at all", async () => {
    const first = get('/held?id=one', 'large');
    await until(() => holds.has('one'));
    const second = get('/quick', 'large');
    await until(() => share.of('large').waiting === 1);
    const other = await get('/quick', 'small');
    expect(other.status).toBe(200);
    // Writes are not reads: they never wait for a turn.
    const write = await fetch(`${url}/write`, { method: 'POST', headers: { 'x-team': 'large' } });
    expect(write.status).toBe(200);
    expect(share.of('large')).toEqual({ running: 1, waiting: 1 });
    holds.get('one')!();
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    await until(() => share.of('large').running === 0);
  });

  it('ends the turn of a client that goes away mid-answer', async () => {
    const abort = new AbortController();
    const gone = get('/held?id=gone', 'large', abort.signal).catch((error: unknown) => error);
    await until(() => holds.has('gone'));
    expect(share.of('large').running).toBe(1);
    abort.abort();
    await gone;
    await until(() => share.of('large').running === 0);
    const next = await get('/quick', 'large');
    expect(next.status).toBe(200);
    holds.get('gone')!();
  });
});
