import { describe, expect, it } from 'vitest';
import { OLDEST_NODE_MAJOR, unsupportedNodeLine } from './node-version.ts';

describe('the supported Node.js', () => {
  it('accepts Node.js 24 and newer', () => {
    expect(unsupportedNodeLine('v24.0.0')).toBeUndefined();
    expect(unsupportedNodeLine('v26.10.0')).toBeUndefined();
  });

  it('refuses older versions with a line that says what to do', () => {
    expect(unsupportedNodeLine('v20.20.2')).toBe(
      'This service needs Node.js 24 or newer and was started with v20.20.2. ' +
        'Start it with `npm start` (it runs the Node.js pinned in package.json after `npm ci`), or install Node.js 26.',
    );
    expect(unsupportedNodeLine('v22.9.0')).toContain('Node.js 24 or newer');
    expect(unsupportedNodeLine('garbage')).toContain('Node.js 24 or newer');
  });

  it('is what the tests themselves run on', () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(OLDEST_NODE_MAJOR);
  });
});
