import { describe, expect, it } from 'vitest';
import { consumerGroupLags } from './kafka-consumer-lag.ts';

describe('consumerGroupLags', () => {
  const ends = [
    { partition: 0, low: '0', high: '10' },
    { partition: 1, low: '4', high: '7' },
    { partition: 2, low: '0', high: '0' },
  ];

  it('sums the messages after each partition offset; an unhandled partition counts from its low offset', () => {
    const recorded = [
      { consumer: 'hooks', partition: 0, next_offset: '8' },
      { consumer: 'mail', partition: 0, next_offset: '10' },
      { consumer: 'mail', partition: 1, next_offset: '7' },
    ];
    expect(consumerGroupLags(['hooks', 'mail', 'new'], ends, recorded)).toEqual([
      { consumer: 'hooks', behindMessages: 2 + 3 },
      { consumer: 'mail', behindMessages: 0 },
      { consumer: 'new', behindMessages: 10 + 3 },
    ]);
  });

  it('never counts below zero when a recorded offset is past the end (a recreated topic)', () => {
    expect(consumerGroupLags(['a'], ends, [{ consumer: 'a', partition: 0, next_offset: '50' }])).toEqual([
      { consumer: 'a', behindMessages: 3 },
    ]);
  });
});
