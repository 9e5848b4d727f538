import { describe, expect, it } from 'vitest';
import { prefersHtml } from './prefers-html.ts';

describe('prefersHtml', () => {
  it('is true for what browsers send when opening a link', () => {
    expect(prefersHtml('text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8')).toBe(
      true,
    );
    expect(prefersHtml('text/html')).toBe(true);
    expect(prefersHtml('application/json;q=0.5, text/html')).toBe(true);
  });

  it('is false for API clients', () => {
    for (const accept of [undefined, '', '*/*', 'application/json', 'application/json, text/html']) {
      expect(prefersHtml(accept)).toBe(false);
    }
    expect(prefersHtml('text/html;q=0.5, application/json')).toBe(false);
    expect(prefersHtml('text/html;q=x')).toBe(false);
  });
});
