/**
 * Autosave of the client's answers: each field's latest value is saved about 600 ms after
 * the last change, one request per field at a time. A refusal of the answer itself (400)
 * is the field's problem and is not retried; anything that may pass later (no network,
 * 5xx, 409 and 429 while another tab saves the same onboarding) is retried with backoff,
 * honouring Retry-After, and again at once when the browser comes back online.
 */
import type { AnswerProblem } from '../../../templates/contract/field-catalogue.ts';

export type SaveStatus = 'idle' | 'saving' | 'saved' | 'offline' | 'retrying';

/** What a failed save threw: an ApiError of ./api.ts, or anything with the same fields. */
export interface SaveFailure {
  status: number;
  code?: string;
  details?: { problem?: AnswerProblem } | null;
  retryAfterSeconds?: number | null;
}

export interface AutosaveOptions {
  save(fieldId: string, value: unknown): Promise<unknown>;
  /** Called whenever the overall status changes. */
  onStatus?(status: SaveStatus): void;
  /** The server's verdict on a field's answer: a problem (400) or null once it is saved. */
  onProblem?(fieldId: string, problem: AnswerProblem | null): void;
  /** A refusal no retry can fix (401, 403, 404, 410): the link or PIN no longer works. */
  onFatal?(error: SaveFailure): void;
  isOnline?(): boolean;
  debounceMs?: number;
  maxBackoffMs?: number;
}

interface FieldState {
  /** The value still to save, when there is one. */
  pending?: { value: unknown };
  timer?: ReturnType<typeof setTimeout>;
  inFlight: boolean;
  /** Waiting to retry: 'offline' when the network failed, 'retrying' when the server refused for now. */
  waiting?: 'offline' | 'retrying';
  attempts: number;
}

const RETRYABLE = new Set([408, 409, 423, 425, 429]);

function failureOf(error: unknown): SaveFailure {
  if (error && typeof error === 'object' && typeof (error as SaveFailure).status === 'number') {
    return error as SaveFailure;
  }
  return { status: 0, code: 'network' };
}

export class Autosave {
  private readonly fields = new Map<string, FieldState>();
  private status: SaveStatus = 'idle';
  private savedOnce = false;
  private stopped = false;
  private idleWaiters: ((saved: boolean) => void)[] = [];
  private readonly debounceMs: number;
  private readonly maxBackoffMs: number;

  constructor(private readonly options: AutosaveOptions) {
    this.debounceMs = options.debounceMs ?? 600;
    this.maxBackoffMs = options.maxBackoffMs ?? 30_000;
  }

  get currentStatus(): SaveStatus {
    return this.status;
  }

  /** A new value for a field: saved after the debounce, the latest value winning. */
  change(fieldId: string, value: unknown): void {
    if (this.stopped) return;
    const state = this.state(fieldId);
    state.pending = { value };
    // While a retry is scheduled, it takes the newest value when it runs.
    if (!state.waiting) {
      if (state.timer !== undefined) clearTimeout(state.timer);
      state.timer = setTimeout(() => {
        state.timer = undefined;
        this.flush(fieldId);
      }, this.debounceMs);
    }
    this.update();
  }

  /** True while some change is not saved yet. */
  hasUnsaved(): boolean {
    for (const state of this.fields.values()) {
      if (state.pending || state.inFlight) return true;
    }
    return false;
  }

  /** Retries every waiting field now (the browser is back online, or the client asked). */
  retryNow(): void {
    for (const [fieldId, state] of this.fields) {
      if (!state.waiting) continue;
      if (state.timer !== undefined) clearTimeout(state.timer);
      state.timer = undefined;
      state.waiting = undefined;
      this.flush(fieldId);
    }
    this.update();
  }

  /**
   * Saves everything now and settles once nothing is pending: true when every change is
   * saved, false when some wait for the network or the server (they keep retrying).
   */
  flushAll(): Promise<boolean> {
    for (const [fieldId, state] of this.fields) {
      if (state.timer !== undefined) clearTimeout(state.timer);
      state.timer = undefined;
      state.waiting = undefined;
      this.flush(fieldId);
    }
    this.update();
    const settled = this.settled();
    if (settled !== null) return Promise.resolve(settled);
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops every timer; later changes are ignored. */
  stop(): void {
    this.stopped = true;
    for (const state of this.fields.values()) {
      if (state.timer !== undefined) clearTimeout(state.timer);
      state.timer = undefined;
    }
    this.resolveWaiters(false);
  }

  private state(fieldId: string): FieldState {
    let state = this.fields.get(fieldId);
    if (!state) {
      state = { inFlight: false, attempts: 0 };
      this.fields.set(fieldId, state);
    }
    return state;
  }

  private flush(fieldId: string): void {
    const state = this.state(fieldId);
    if (this.stopped || state.inFlight || !state.pending) return;
    const { value } = state.pending;
    state.pending = undefined;
    state.inFlight = true;
    this.update();
    this.options.save(fieldId, value).then(
      () => {
        state.inFlight = false;
        state.attempts = 0;
        this.savedOnce = true;
        this.options.onProblem?.(fieldId, null);
        if (state.pending && state.timer === undefined) this.flush(fieldId);
        this.update();
      },
      (error: unknown) => {
        state.inFlight = false;
        this.failed(fieldId, state, value, failureOf(error));
        this.update();
      },
    );
  }

  private failed(fieldId: string, state: FieldState, value: unknown, failure: SaveFailure): void {
    if (failure.status === 400 || failure.status === 413 || failure.status === 422) {
      // The answer itself is refused: show why beside the field; a newer value still saves.
      this.options.onProblem?.(fieldId, failure.details?.problem ?? { code: 'wrong_type' });
      if (state.pending && state.timer === undefined) this.flush(fieldId);
      return;
    }
    const offline = failure.status === 0 || this.options.isOnline?.() === false;
    if (!offline && !(failure.status >= 500 || RETRYABLE.has(failure.status))) {
      state.pending = undefined;
      this.options.onFatal?.(failure);
      return;
    }
    if (!state.pending) state.pending = { value };
    state.waiting = offline ? 'offline' : 'retrying';
    state.attempts += 1;
    const backoff = Math.min(this.maxBackoffMs, 1000 * 2 ** Math.min(state.attempts - 1, 10));
    const wait =
      failure.retryAfterSeconds != null && failure.retryAfterSeconds >= 0
        ? Math.max(failure.retryAfterSeconds * 1000, 250)
        : backoff;
    if (state.timer !== undefined) clearTimeout(state.timer);
    state.timer = setTimeout(() => {
      state.timer = undefined;
      state.waiting = undefined;
      this.flush(fieldId);
      this.update();
    }, wait);
  }

  /** true: all saved; false: something waits for a retry; null: still working. */
  private settled(): boolean | null {
    let waiting = false;
    for (const state of this.fields.values()) {
      if (state.inFlight) return null;
      if (state.waiting) waiting = true;
      else if (state.pending) return null;
    }
    return !waiting;
  }

  private resolveWaiters(saved: boolean): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve(saved);
  }

  private update(): void {
    let next: SaveStatus = this.savedOnce ? 'saved' : 'idle';
    let busy = false;
    let retrying = false;
    let offline = false;
    for (const state of this.fields.values()) {
      if (state.waiting === 'offline') offline = true;
      else if (state.waiting === 'retrying') retrying = true;
      else if (state.pending || state.inFlight) busy = true;
    }
    if (offline) next = 'offline';
    else if (retrying) next = 'retrying';
    else if (busy) next = 'saving';
    if (next !== this.status) {
      this.status = next;
      this.options.onStatus?.(next);
    }
    if (this.idleWaiters.length > 0) {
      const settled = this.settled();
      if (settled !== null) this.resolveWaiters(settled);
    }
  }
}
