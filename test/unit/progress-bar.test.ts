import { describe, expect, it } from 'vitest';
import { ProgressBar } from '../../shared/cli/progress-bar.ts';

function fakeStream(isTTY: boolean, columns?: number) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, columns, write: (text: string) => writes.push(text) } };
}

function fakeClock() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('progress bar', () => {
  it('shows bar, percent, done/total and rate', () => {
    const clock = fakeClock();
    const { stream } = fakeStream(false);
    const bar = new ProgressBar(4000, {
      label: 'rebuild',
      unit: 'events',
      stream,
      width: 10,
      now: clock.now,
    });
    clock.advance(2000);
    bar.update(1000);
    expect(bar.render()).toBe('rebuild [███░░░░░░░]  25% 1,000/4,000 events 500 events/s');
  });

  it('on a terminal redraws one line with \\r at most every 100 ms', () => {
    const clock = fakeClock();
    const { stream, writes } = fakeStream(true);
    const bar = new ProgressBar(1000, { unit: 'events', stream, now: clock.now });
    for (let done = 1; done <= 1000; done++) {
      bar.update(done);
      clock.advance(1); // 1000 updates in one second
    }
    bar.finish();
    expect(writes.length).toBeGreaterThanOrEqual(10);
    expect(writes.length).toBeLessThanOrEqual(13);
    expect(writes.slice(0, -1).every((text) => text.startsWith('\r') && !text.includes('\n'))).toBe(true);
    expect(writes.at(-2)).toContain('100% 1,000/1,000 events');
    expect(writes.at(-1)).toBe('\n');
  });

  it('fits the bar into a narrow terminal', () => {
    const { stream, writes } = fakeStream(true, 60);
    const bar = new ProgressBar(10, { label: 'export', unit: 'events', stream, width: 40 });
    bar.update(5);
    const line = writes[0]!.replace('\r', '').replace('\x1b[K', '');
    expect(line.length).toBeLessThan(60);
    expect(line).toContain('50%');
  });

  it('without a terminal writes a plain line per 10%', () => {
    const { stream, writes } = fakeStream(false);
    const bar = new ProgressBar(1000, { unit: 'events', stream });
    for (let done = 0; done <= 1000; done += 7) bar.update(done);
    bar.update(1000);
    bar.finish();
    const percents = writes.map((line) => /(\d+)%/.exec(line)![1]);
    expect(percents).toEqual(['0', '10', '20', '30', '40', '50', '60', '70', '80', '90', '100']);
    expect(writes.every((line) => line.endsWith('\n') && !line.includes('\r'))).toBe(true);
  });

  it('an empty job is complete, and a total that grows is followed', () => {
    const { stream, writes } = fakeStream(false);
    new ProgressBar(0, { unit: 'events', stream }).finish();
    expect(writes).toHaveLength(1);
    expect(writes[0]).toContain('100% 0/0 events');

    const growing = new ProgressBar(10, { stream });
    growing.update(20);
    expect(growing.percent).toBe(100);
    growing.update(20, 40);
    expect(growing.percent).toBe(50);
  });
});
