import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Autosave, type SaveStatus } from './autosave.ts';

interface Call {
  fieldId: string;
  value: unknown;
  resolve(): void;
  reject(error: unknown): void;
}

function setup(options: { online?: () => boolean } = {}) {
  const calls: Call[] = [];
  const statuses: SaveStatus[] = [];
  const problems: [string, unknown][] = [];
  const fatal: unknown[] = [];
  const autosave = new Autosave({
    save: (fieldId, value) =>
      new Promise<void>((resolve, reject) => calls.push({ fieldId, value, resolve, reject })),
    onStatus: (status) => statuses.push(status),
    onProblem: (fieldId, problem) => problems.push([fieldId, problem]),
    onFatal: (error) => fatal.push(error),
    isOnline: options.online,
  });
  return { autosave, calls, statuses, problems, fatal };
}

const settle = () => vi.advanceTimersByTimeAsync(0);

describe('Autosave', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('saves the latest value of a field once after the debounce', async () => {
    const { autosave, calls, statuses } = setup();
    autosave.change('name', 'A');
    autosave.change('name', 'Ad');
    autosave.change('name', 'Ada');
    expect(statuses).toEqual(['saving']);
    await vi.advanceTimersByTimeAsync(599);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.map((call) => call.value)).toEqual(['Ada']);
    calls[0]!.resolve();
    await settle();
    expect(autosave.currentStatus).toBe('saved');
    expect(autosave.hasUnsaved()).toBe(false);
  });

  it('keeps one request per field in flight and sends the newest value after it', async () => {
    const { autosave, calls } = setup();
    autosave.change('name', 'A');
    await vi.advanceTimersByTimeAsync(600);
    autosave.change('name', 'B');
    autosave.change('name', 'C');
    await vi.advanceTimersByTimeAsync(600);
    expect(calls).toHaveLength(1);
    calls[0]!.resolve();
    await settle();
    expect(calls.map((call) => call.value)).toEqual(['A', 'C']);
    calls[1]!.resolve();
    await settle();
    expect(autosave.currentStatus).toBe('saved');
  });

  it('saves different fields independently', async () => {
    const { autosave, calls } = setup();
    autosave.change('a', 1);
    autosave.change('b', 2);
    await vi.advanceTimersByTimeAsync(600);
    expect(calls.map((call) => call.fieldId).sort()).toEqual(['a', 'b']);
  });

  it('shows a 400 beside the field and does not retry it', async () => {
    const { autosave, calls, problems } = setup();
    autosave.change('email', 'x'.repeat(300));
    await vi.advanceTimersByTimeAsync(600);
    calls[0]!.reject({ status: 400, code: 'invalid_body', details: { problem: { code: 'too_long' } } });
    await settle();
    expect(problems).toEqual([['email', { code: 'too_long' }]]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toHaveLength(1);
    expect(autosave.hasUnsaved()).toBe(false);
  });

  it('retries 409, 503 and 429 with backoff, honouring Retry-After, and never calls them fatal', async () => {
    const { autosave, calls, fatal } = setup();
    autosave.change('name', 'Ada');
    await vi.advanceTimersByTimeAsync(600);
    calls[0]!.reject({ status: 409, code: 'concurrency_conflict' });
    await settle();
    expect(autosave.currentStatus).toBe('retrying');
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toHaveLength(2);
    calls[1]!.reject({ status: 503, code: 'unavailable' });
    await settle();
    await vi.advanceTimersByTimeAsync(1999);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(3);
    calls[2]!.reject({ status: 429, code: 'rate_limited', retryAfterSeconds: 7 });
    await settle();
    await vi.advanceTimersByTimeAsync(6999);
    expect(calls).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.map((call) => call.value)).toEqual(['Ada', 'Ada', 'Ada', 'Ada']);
    calls[3]!.resolve();
    await settle();
    expect(autosave.currentStatus).toBe('saved');
    expect(fatal).toEqual([]);
  });

  it('waits offline after a network failure and retries when the browser is back online', async () => {
    let online = false;
    const { autosave, calls, statuses } = setup({ online: () => online });
    autosave.change('name', 'Ada');
    await vi.advanceTimersByTimeAsync(600);
    calls[0]!.reject({ status: 0, code: 'network' });
    await settle();
    expect(autosave.currentStatus).toBe('offline');
    autosave.change('name', 'Ada L');
    await vi.advanceTimersByTimeAsync(600);
    expect(calls).toHaveLength(1);
    online = true;
    autosave.retryNow();
    expect(calls.map((call) => call.value)).toEqual(['Ada', 'Ada L']);
    calls[1]!.resolve();
    await settle();
    expect(statuses).toEqual(['saving', 'offline', 'saving', 'saved']);
  });

  it('reports a refusal no retry fixes as fatal', async () => {
    const { autosave, calls, fatal } = setup();
    autosave.change('name', 'Ada');
    await vi.advanceTimersByTimeAsync(600);
    calls[0]!.reject({ status: 404, code: 'link_inactive' });
    await settle();
    expect(fatal).toEqual([{ status: 404, code: 'link_inactive' }]);
    expect(autosave.hasUnsaved()).toBe(false);
  });

  it('flushAll saves at once and tells whether everything is saved', async () => {
    const { autosave, calls } = setup();
    autosave.change('a', 1);
    const done = autosave.flushAll();
    expect(calls).toHaveLength(1);
    calls[0]!.resolve();
    await expect(done).resolves.toBe(true);

    autosave.change('a', 2);
    const failed = autosave.flushAll();
    calls[1]!.reject({ status: 0, code: 'network' });
    await expect(failed).resolves.toBe(false);
    await expect(new Autosave({ save: async () => {} }).flushAll()).resolves.toBe(true);
  });
});
