import { describe, expect, it } from 'vitest';
import { pagerState } from './pager.tsx';

describe('pagerState', () => {
  it('hides the pager when an exact total fits on one page', () => {
    expect(pagerState({ offset: 0, size: 25, total: 25, capped: false, shown: 25 })).toBeNull();
  });

  it('counts the pages of an exact total and ends at its last page', () => {
    expect(pagerState({ offset: 0, size: 25, total: 60, capped: false, shown: 25 })).toEqual({
      label: 'clients.page',
      values: { page: 1, pages: 3 },
      last: false,
    });
    expect(pagerState({ offset: 50, size: 25, total: 60, capped: false, shown: 10 })?.last).toBe(true);
  });

  it('says "of more than" for a capped total and keeps Next until a page comes back short', () => {
    expect(pagerState({ offset: 0, size: 25, total: 10_000, capped: true, shown: 25 })).toEqual({
      label: 'clients.pageOfMore',
      values: { page: 1, pages: 400 },
      last: false,
    });
    // Past the counted pages: the page alone, and Next as long as pages come back full.
    expect(pagerState({ offset: 10_000, size: 25, total: 10_000, capped: true, shown: 25 })).toEqual({
      label: 'clients.pageOnly',
      values: { page: 401 },
      last: false,
    });
    expect(pagerState({ offset: 10_025, size: 25, total: 10_000, capped: true, shown: 3 })?.last).toBe(true);
  });
});
