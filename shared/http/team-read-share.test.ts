import { describe, expect, it } from 'vitest';
import { TeamReadShare } from './team-read-share.ts';

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe("TeamReadShare: each team's share of the reads", () => {
  it('runs at most perTeam reads of a team and lets the others wait in arrival order', async () => {
    const share = new TeamReadShare(2);
    const order: string[] = [];
    const first = await share.turn('a');
    const second = await share.turn('a');
    const waiting = ['third', 'fourth'].map((name) =>
      share.turn('a').then((end) => {
        order.push(name);
        return end;
      }),
    );
    await settled();
    expect(order).toEqual([]);
    expect(share.of('a')).toEqual({ running: 2, waiting: 2 });
    first();
    await settled();
    expect(order).toEqual(['third']);
    second();
    await settled();
    expect(order).toEqual(['third', 'fourth']);
    expect(share.of('a')).toEqual({ running: 2, waiting: 0 });
    for (const end of await Promise.all(waiting)) end();
    expect(share.of('a')).toEqual({ running: 0, waiting: 0 });
  });

  it("never makes a team wait behind another team's reads", async () => {
    const share = new TeamReadShare(1);
    const busy = await share.turn('large');
    const queued = share.turn('large');
    const quiet = await share.turn('small');
    expect(share.of('small')).toEqual({ running: 1, waiting: 0 });
    expect(share.of('large')).toEqual({ running: 1, waiting: 1 });
    quiet();
    busy();
    (await queued)();
    expect(share.of('large')).toEqual({ running: 0, waiting: 0 });
  });

  it('ends a turn once however often it is ended, and forgets a team without reads', async () => {
    const share = new TeamReadShare(1);
    const end = await share.turn('a');
    const next = share.turn('a');
    end();
    end();
    end();
    const nextEnd = await next;
    expect(share.of('a')).toEqual({ running: 1, waiting: 0 });
    nextEnd();
    expect(share.of('a')).toEqual({ running: 0, waiting: 0 });
    expect((share as unknown as { teams: Map<string, unknown> }).teams.size).toBe(0);
  });

  it('refuses a share that is not a whole number from 1', () => {
    expect(() => new TeamReadShare(0)).toThrow();
    expect(() => new TeamReadShare(1.5)).toThrow();
  });
});
