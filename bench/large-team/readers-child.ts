import { serveChild } from '../lib/child.ts';
import { FIGURE_HEADER } from './server-timing.ts';

export interface ReadersInput {
  url: string;
  cookie: string;
  /** The paths the readers cycle through (each reader starts at its own). */
  paths: string[];
  readers: number;
  seconds: number;
}

export interface ReadersOutput {
  requests: number;
  failed: number;
}

/**
 * The large team's readers, in a process of their own (their event loop is not the
 * service's): `readers` closed loops of GET requests over `paths` for `seconds`, each
 * request tagged so the service side files its time under "load".
 */
serveChild<ReadersInput, { requests: number }, ReadersOutput>(async (input, progress) => {
  const until = performance.now() + input.seconds * 1000;
  let requests = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: input.readers }, async (_, reader) => {
      for (let turn = reader; performance.now() < until; turn += input.readers) {
        const response = await fetch(`${input.url}${input.paths[turn % input.paths.length]}`, {
          headers: { cookie: input.cookie, [FIGURE_HEADER]: 'load' },
        });
        await response.arrayBuffer();
        requests++;
        if (response.status !== 200) failed++;
        if (requests % 50 === 0) progress({ requests });
      }
    }),
  );
  return { requests, failed };
});
