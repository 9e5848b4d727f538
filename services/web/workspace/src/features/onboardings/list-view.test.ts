import { describe, expect, it } from 'vitest';
import { changed, DEFAULT_VIEW, filtering, filtersOf, searchOf, viewOf } from './list-view.ts';

const MEMBER = '3f1c1a8e-5b7d-4c2a-9d7e-1a2b3c4d5e6f';

describe('the onboardings list’s view in the URL', () => {
  it('writes nothing for the default view and reads an empty query as it', () => {
    expect(searchOf(DEFAULT_VIEW)).toBe('');
    expect(viewOf('')).toEqual(DEFAULT_VIEW);
    expect(viewOf('?')).toEqual(DEFAULT_VIEW);
  });

  it('round-trips every part of a view, in a fixed order', () => {
    const view = {
      q: 'Zoë O’Brien & co',
      status: 'completed',
      review: 'awaiting_review',
      assignee: MEMBER,
      due: 'overdue',
      archived: 'only',
      sort: 'client',
      dir: 'asc',
      page: 3,
    } as const;
    const search = searchOf(view);
    expect(search).toBe(
      `?q=Zo%C3%AB+O%E2%80%99Brien+%26+co&status=completed&review=awaiting_review&assignee=${MEMBER}&due=overdue&archived=only&sort=client&dir=asc&page=3`,
    );
    expect(viewOf(search)).toEqual(view);
  });

  it('takes unknown or invalid values as the default', () => {
    expect(
      viewOf(
        '?status=lost&review=x&assignee=<script>&due=soon&archived=all&sort=name&dir=up&page=-2&extra=1',
      ),
    ).toEqual(DEFAULT_VIEW);
    expect(viewOf('?page=2.5').page).toBe(2);
    expect(viewOf('?assignee=unassigned').assignee).toBe('unassigned');
    expect(viewOf(`?q=${'a'.repeat(300)}`).q).toHaveLength(200);
  });

  it('goes back to page 1 on a change of filters, keeps a change of page', () => {
    const onPage4 = { ...DEFAULT_VIEW, page: 4 };
    expect(changed(onPage4, { status: 'sent' }).page).toBe(1);
    expect(changed(onPage4, { page: 5 }).page).toBe(5);
  });

  it('asks the API with the filters and order only, and knows when it filters', () => {
    const view = { ...DEFAULT_VIEW, q: '  ada ', review: 'awaiting_review', sort: 'due', page: 2 } as const;
    expect(filtersOf(view)).toEqual({ q: 'ada', review: 'awaiting_review', sort: 'due' });
    expect(filtering(view)).toBe(true);
    expect(filtering({ ...DEFAULT_VIEW, sort: 'client', dir: 'asc' })).toBe(false);
    expect(searchOf({ ...DEFAULT_VIEW, q: '   ' })).toBe('');
  });
});
