import diagnostics from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The request header that names the figure a request counts for. */
export const FIGURE_HEADER = 'x-bench-figure';

export interface ServerTime {
  /** Request parsed → first byte of the body handed to the socket. */
  firstByteMs: number;
  /** Request parsed → the last byte handed to the socket. */
  totalMs: number;
  bytes: number;
}

interface HttpMessage {
  request: IncomingMessage;
  response: ServerResponse;
}

/**
 * Server time of each request of the service running in this process, without the network:
 * Node's own HTTP diagnostics channels (`http.server.request.start` once the request's
 * headers are parsed, `http.server.response.finish` once the answer's last byte is handed to
 * the socket), the same span fastify's onResponse `reply.elapsedTime` measures, plus the
 * first body byte (a streamed answer's first rows). The service emits no Server-Timing, and
 * a hook cannot be added to its app once it listens; the channels need no change to it.
 * Requests are filed under their FIGURE_HEADER; those without one are not kept.
 */
export function recordServerTimes() {
  const started = new WeakMap<ServerResponse, { at: number; firstByte?: number; bytes: number }>();
  const times = new Map<string, ServerTime[]>();
  const onStart = (message: unknown) => {
    const { request, response } = message as HttpMessage;
    if (typeof request.headers[FIGURE_HEADER] !== 'string') return;
    const entry: { at: number; firstByte?: number; bytes: number } = { at: performance.now(), bytes: 0 };
    started.set(response, entry);
    const write = response.write;
    const end = response.end;
    const sent = (chunk: unknown) => {
      const size = typeof chunk === 'string' ? Buffer.byteLength(chunk) : ((chunk as Buffer)?.length ?? 0);
      if (size > 0 && entry.firstByte === undefined) entry.firstByte = performance.now();
      entry.bytes += size;
    };
    response.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
      sent(chunk);
      return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof response.write;
    response.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
      if (chunk !== undefined && typeof chunk !== 'function') sent(chunk);
      return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
    } as typeof response.end;
  };
  const onFinish = (message: unknown) => {
    const { request, response } = message as HttpMessage;
    const entry = started.get(response);
    const figure = request.headers[FIGURE_HEADER];
    if (!entry || typeof figure !== 'string') return;
    const now = performance.now();
    const list = times.get(figure) ?? [];
    list.push({
      firstByteMs: (entry.firstByte ?? now) - entry.at,
      totalMs: now - entry.at,
      bytes: entry.bytes,
    });
    times.set(figure, list);
  };
  diagnostics.subscribe('http.server.request.start', onStart);
  diagnostics.subscribe('http.server.response.finish', onFinish);
  return {
    /** The times kept for a figure, and forgets them. */
    take(figure: string): ServerTime[] {
      const list = times.get(figure) ?? [];
      times.delete(figure);
      return list;
    },
    stop() {
      diagnostics.unsubscribe('http.server.request.start', onStart);
      diagnostics.unsubscribe('http.server.response.finish', onFinish);
    },
  };
}
