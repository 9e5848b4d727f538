import { availableParallelism } from 'node:os';
import type { FastifyReply, FastifyRequest } from 'fastify';

interface TeamTurns {
  running: number;
  waiting: (() => void)[];
}

/**
 * Each team's share of this process's workspace reads: at most `perTeam` reads of one team
 * run at a time, the others wait their turn in arrival order, and no other team's read
 * waits behind them. A team reading a large history (eight members on its heaviest views)
 * then holds at most `perTeam` of the cores and read connections, not all of them, so a
 * quiet team's list answers in about its own time (bench part 12, the small team beside the
 * large one; decision 0103).
 *
 * Written here rather than taken from p-limit: a team's entry is forgotten the moment its
 * last read ends, which needs the count at that moment, and p-limit updates it a microtask
 * later. The share is per process; several instances each keep their own.
 */
export class TeamReadShare {
  private readonly teams = new Map<string, TeamTurns>();

  constructor(readonly perTeam: number = availableParallelism()) {
    if (!Number.isInteger(perTeam) || perTeam < 1) throw new Error(`perTeam must be a whole number from 1`);
  }

  /** Resolves when it is a read of `teamId`'s turn; the function it gives ends the turn (once). */
  async turn(teamId: string): Promise<() => void> {
    let team = this.teams.get(teamId);
    if (!team) this.teams.set(teamId, (team = { running: 0, waiting: [] }));
    if (team.running < this.perTeam) team.running++;
    else await new Promise<void>((granted) => team.waiting.push(granted));
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const next = team.waiting.shift();
      // The turn passes straight to the next read in line; running stays as it is.
      if (next) return next();
      team.running--;
      if (team.running === 0) this.teams.delete(teamId);
    };
  }

  /** Reads of `teamId` running and waiting (for tests and metrics). */
  of(teamId: string): { running: number; waiting: number } {
    const team = this.teams.get(teamId);
    return { running: team?.running ?? 0, waiting: team?.waiting.length ?? 0 };
  }
}

const READS = new Set(['GET', 'HEAD']);

/**
 * The workspace API's hook (after the access check): a signed-in member's read waits for its
 * team's turn and ends it when the answer is done or the connection closes, whichever comes
 * first, streams included (`close` of the response is emitted in both cases).
 */
export function takeTeamReadTurn(share: TeamReadShare) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const teamId = request.workspaceSession?.teamId;
    if (!teamId || !READS.has(request.method)) return;
    const end = await share.turn(teamId);
    if (reply.raw.writableFinished || request.raw.destroyed) return end();
    reply.raw.once('close', end);
  };
}
