import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TrailingWrite } from './trailing-write.ts';

describe('TrailingWrite', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('writes once for every call within its delay', async () => {
    const write = vi.fn(async () => undefined);
    const trailing = new TrailingWrite(200, write);
    for (let n = 0; n < 50; n++) trailing.schedule();
    await vi.advanceTimersByTimeAsync(199);
    expect(write).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(write).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(write).toHaveBeenCalledTimes(1);
  });

  it('a call during a write runs it once more afterwards', async () => {
    let finish!: () => void;
    const write = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const trailing = new TrailingWrite(100, write);
    trailing.schedule();
    await vi.advanceTimersByTimeAsync(100);
    trailing.schedule();
    trailing.schedule();
    finish();
    await vi.advanceTimersByTimeAsync(100);
    expect(write).toHaveBeenCalledTimes(2);
    finish();
  });

  it('flush writes what is pending at once, and nothing when nothing is', async () => {
    const write = vi.fn(async () => undefined);
    const trailing = new TrailingWrite(10_000, write);
    await trailing.flush();
    expect(write).not.toHaveBeenCalled();
    trailing.schedule();
    await trailing.flush();
    expect(write).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(write).toHaveBeenCalledTimes(1);
  });

  it('a failed write is forgotten and the next one goes ahead', async () => {
    const write = vi.fn().mockRejectedValueOnce(new Error('down')).mockResolvedValue(undefined);
    const trailing = new TrailingWrite(10, write);
    trailing.schedule();
    await vi.advanceTimersByTimeAsync(10);
    trailing.schedule();
    await vi.advanceTimersByTimeAsync(10);
    expect(write).toHaveBeenCalledTimes(2);
  });
});
