import { describe, expect, it } from 'vitest';
import { checkpointKind, stuckCheckpoints, type CheckpointLag } from './checkpoint-lag.ts';

describe('checkpointKind', () => {
  it('tells projections, log consumers and the relay apart, and leaves out anything else', () => {
    expect(checkpointKind('clients', ['clients', 'teams'])).toBe('projection');
    expect(checkpointKind('consumer:hook-deliveries', ['clients'])).toBe('consumer');
    expect(checkpointKind('relay:kafka', ['clients'])).toBe('relay');
    expect(checkpointKind('rebuild:clients', ['clients'])).toBeNull();
  });
});

describe('stuckCheckpoints', () => {
  const lag = (checkpoint: string, kind: CheckpointLag['kind'], lagSeconds: number): CheckpointLag => ({
    checkpoint,
    kind,
    behindEvents: 3,
    lagSeconds,
  });

  it('names the watched checkpoints past the limit, with a reason', () => {
    const lags = [
      lag('clients', 'projection', 121.7),
      lag('teams', 'projection', 120),
      lag('relay:kafka', 'relay', 500),
    ];
    const stuck = stuckCheckpoints(lags, 120, (candidate) => candidate.kind === 'projection');
    expect(stuck.map((entry) => entry.lag.checkpoint)).toEqual(['clients']);
    expect(stuck[0]!.reason).toBe('projection clients is 121 s behind the event log (3 events; limit 120 s)');
  });
});
