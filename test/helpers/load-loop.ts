/**
 * A bounded load for resilience tests: `workers` loops sending requests one after the
 * other until `stop()` (or `maxMs`), each request bounded by `requestTimeoutMs`. Every
 * answer is kept with its status, error code and retryable flag, and what the request
 * was, so a test can say which failed how, and which writes were acknowledged.
 */

export interface LoadRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface LoadOutcome {
  request: LoadRequest;
  /** 0: no HTTP answer (connection refused or reset, or the request timed out). */
  status: number;
  code?: string;
  retryable?: boolean;
  body?: unknown;
  at: number;
}

export interface RunningLoad {
  outcomes: LoadOutcome[];
  /** Resolves once `count` more 2xx answers have come in after the call. */
  successes(count: number, timeoutMs: number): Promise<void>;
  stop(): Promise<LoadOutcome[]>;
}

export function startLoad(
  baseUrl: string,
  next: (worker: number, turn: number) => LoadRequest,
  { workers = 6, maxMs = 120_000, requestTimeoutMs = 15_000 } = {},
): RunningLoad {
  const outcomes: LoadOutcome[] = [];
  let stopped = false;
  const startedAt = Date.now();
  const listeners = new Set<() => void>();

  const send = async (request: LoadRequest): Promise<LoadOutcome> => {
    const headers: Record<string, string> = { ...request.headers };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    try {
      const response = await fetch(`${baseUrl}${request.path}`, {
        method: request.method,
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: AbortSignal.timeout(requestTimeoutMs),
      });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON
      }
      const { code, retryable } = (body ?? {}) as { code?: string; retryable?: boolean };
      return { request, status: response.status, code, retryable, body, at: Date.now() };
    } catch {
      return { request, status: 0, at: Date.now() };
    }
  };

  const loops = Array.from({ length: workers }, async (_, worker) => {
    for (let turn = 0; !stopped && Date.now() - startedAt < maxMs; turn++) {
      const outcome = await send(next(worker, turn));
      outcomes.push(outcome);
      for (const listener of listeners) listener();
      // No answer at all: do not spin while the port is closed.
      if (outcome.status === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  return {
    outcomes,
    successes(count, timeoutMs) {
      const from = outcomes.length;
      return new Promise((resolve, reject) => {
        const check = () => {
          const ok = outcomes.slice(from).filter((outcome) => outcome.status >= 200 && outcome.status < 300);
          if (ok.length < count) return;
          done();
          resolve();
        };
        const timer = setTimeout(() => {
          done();
          const recent = outcomes.slice(-5).map((outcome) => `${outcome.status} ${outcome.code ?? ''}`);
          reject(
            new Error(`fewer than ${count} 2xx answers within ${timeoutMs} ms; last: ${recent.join(', ')}`),
          );
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
    async stop() {
      stopped = true;
      await Promise.all(loops);
      return outcomes;
    },
  };
}
