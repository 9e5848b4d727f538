import { describe, expect, it } from 'vitest';
import { recorded } from '../../projections/fold-test-events.ts';
import { handledBy, readModelProjection, type Projection } from './projection.ts';

const events = [recorded('a', {}, 1n), recorded('b', {}, 2n), recorded('a', {}, 3n)];

describe('projection', () => {
  it('hands a projection only the event types it declares, in log order', () => {
    const projection: Projection = { name: 'p', tables: [], canHandle: ['a'], apply: async () => undefined };
    expect(handledBy(projection, events).map((event) => event.position)).toEqual([1n, 3n]);
  });

  it('hands a projection that declares nothing every event', () => {
    const projection: Projection = { name: 'p', tables: [], apply: async () => undefined };
    expect(handledBy(projection, events)).toEqual(events);
  });

  it('a read model loads once, folds every event in order, and persists once', async () => {
    const calls: string[] = [];
    const projection = readModelProjection<number[]>({
      name: 'p',
      tables: [],
      canHandle: ['a', 'b'],
      load: async () => {
        calls.push('load');
        return [];
      },
      fold: (seen, event) => [...seen, Number(event.position)],
      persist: async (_client, seen) => {
        calls.push(`persist ${seen.join(',')}`);
      },
    });
    await projection.apply({} as never, events, (name) => name);
    expect(calls).toEqual(['load', 'persist 1,2,3']);
  });
});
