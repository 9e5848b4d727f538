/**
 * The onboardings list's view (search, filters, order, page) and its URL query string, both
 * ways, pure: the screen writes the view into the address (history) so back, forward and a
 * shared link restore it, and reads it back from any query string, unknown or invalid values
 * taken as the default. Only what differs from the default is written, in a fixed order.
 */
import { ONBOARDING_STATUSES } from '../clients/records.ts';

export const SORTS = ['created', 'due', 'status', 'client'] as const;
export const DUE = ['overdue', 'week', 'none'] as const;
export const REVIEW = ['awaiting_review'] as const;

export interface ListView {
  q: string;
  status: '' | (typeof ONBOARDING_STATUSES)[number];
  review: '' | (typeof REVIEW)[number];
  assignee: string;
  due: '' | (typeof DUE)[number];
  archived: 'hide' | 'only';
  sort: (typeof SORTS)[number];
  dir: 'asc' | 'desc';
  /** 1-based. */
  page: number;
}

export const DEFAULT_VIEW: ListView = {
  q: '',
  status: '',
  review: '',
  assignee: '',
  due: '',
  archived: 'hide',
  sort: 'created',
  dir: 'desc',
  page: 1,
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const oneOf = <T extends string>(values: readonly T[], value: string | null, fallback: T): T =>
  value !== null && (values as readonly string[]).includes(value) ? (value as T) : fallback;

/** The view a query string ("?q=ada&sort=client" or without "?") asks for. */
export function viewOf(search: string): ListView {
  const params = new URLSearchParams(search);
  const assignee = params.get('assignee') ?? '';
  const page = Number.parseInt(params.get('page') ?? '', 10);
  return {
    q: (params.get('q') ?? '').slice(0, 200),
    status: oneOf(['', ...ONBOARDING_STATUSES], params.get('status'), ''),
    review: oneOf(['', ...REVIEW], params.get('review'), ''),
    assignee: assignee === 'unassigned' || UUID.test(assignee) ? assignee : '',
    due: oneOf(['', ...DUE], params.get('due'), ''),
    archived: oneOf(['hide', 'only'], params.get('archived'), 'hide'),
    sort: oneOf(SORTS, params.get('sort'), 'created'),
    dir: oneOf(['asc', 'desc'], params.get('dir'), 'desc'),
    page: Number.isFinite(page) && page >= 1 && page <= 100_000 ? page : 1,
  };
}

const ORDER: readonly (keyof ListView)[] = [
  'q',
  'status',
  'review',
  'assignee',
  'due',
  'archived',
  'sort',
  'dir',
  'page',
];

/** The query string of a view ("" for the default view, else "?…"). */
export function searchOf(view: ListView): string {
  const params = new URLSearchParams();
  for (const key of ORDER) {
    const value = key === 'q' ? view.q.trim() : view[key];
    if (value !== DEFAULT_VIEW[key]) params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The view with some filters changed: any change but the page's goes back to page 1. */
export const changed = (view: ListView, change: Partial<ListView>): ListView => ({
  ...view,
  ...change,
  page: change.page ?? 1,
});

/** The API's filters of a view (the list's, the export's): defaults left out. */
export function filtersOf(view: ListView): Record<string, string> {
  const query: Record<string, string> = {};
  for (const key of ORDER) {
    if (key === 'page') continue;
    const value = key === 'q' ? view.q.trim() : view[key];
    if (value !== '' && value !== DEFAULT_VIEW[key]) query[key] = String(value);
  }
  return query;
}

/** Whether the view filters anything (an empty list then says "none match", not "none yet"). */
export const filtering = (view: ListView) =>
  Object.keys(filtersOf({ ...view, sort: 'created', dir: 'desc' })).length > 0;
