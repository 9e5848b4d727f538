/**
 * The service runs on Node.js 24 or newer. `npm start` and `npm test` use the Node.js that
 * package.json pins (the `node` package puts it first on the scripts' PATH), whatever the
 * machine's own Node.js is; a start by hand on an older one stops here with a clear line
 * instead of failing later in a dependency.
 */
export const OLDEST_NODE_MAJOR = 24;

/** The line to print when `version` (as `process.version` gives it) is too old; undefined when fine. */
export function unsupportedNodeLine(version: string): string | undefined {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  if (Number.isInteger(major) && major >= OLDEST_NODE_MAJOR) return undefined;
  return (
    `This service needs Node.js ${OLDEST_NODE_MAJOR} or newer and was started with ${version}. ` +
    'Start it with `npm start` (it runs the Node.js pinned in package.json after `npm ci`), or install Node.js 26.'
  );
}
