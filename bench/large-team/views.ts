/** What the workspace reads, grouped as the figures group them. */
export type ViewKind = 'home' | 'list' | 'clients' | 'search' | 'timeline' | 'export';

export interface View {
  name: string;
  kind: ViewKind;
  /** Paths cycled through, one per round (a search's words, an onboarding's timeline). */
  paths: string[];
}

/** Client searches: whole words, word starts, two words, an email's word (as part 11). */
export const SEARCHES = [
  'lovelace',
  'hop',
  'turing bletchley',
  'angstr',
  'cafe',
  'client-42',
  'ham apollo',
  'zola',
  'ritch',
];

const STATUSES = ['draft', 'sent', 'in_progress', 'completed', 'expired', 'cancelled'];

/**
 * Every sort and every filter of the onboardings list (services/onboardings/workspace-list-query.ts),
 * Home, the clients list and search, timelines and the CSV export, for one team.
 */
export function workspaceViews(memberId: string, timelines: string[]): View[] {
  const list = (name: string, query: string): View => ({
    name: `list ${name}`,
    kind: 'list',
    paths: [`/workspace/v1/onboardings?limit=25${query ? `&${query}` : ''}`],
  });
  return [
    { name: 'home', kind: 'home', paths: ['/workspace/v1/home'] },
    list('newest first', ''),
    list('oldest first', 'dir=asc'),
    list('by due date, soonest', 'sort=due&dir=asc'),
    list('by due date, latest', 'sort=due&dir=desc'),
    list('by status', 'sort=status&dir=asc'),
    list('by status, reversed', 'sort=status&dir=desc'),
    list('by client A–Z', 'sort=client&dir=asc'),
    list('by client Z–A', 'sort=client&dir=desc'),
    ...STATUSES.map((status) => list(`status ${status}`, `status=${status}`)),
    list('waiting for review', 'review=awaiting_review'),
    list('assigned to me', `assignee=${memberId}`),
    list('unassigned', 'assignee=unassigned'),
    list('overdue', 'due=overdue'),
    list('due this week', 'due=week'),
    list('no due date', 'due=none'),
    list('archived', 'archived=only'),
    list('search a client word', 'q=lovelace'),
    list('search the template', 'q=intake'),
    list(
      'in progress, overdue, mine, by due',
      `status=in_progress&due=overdue&assignee=${memberId}&sort=due&dir=asc`,
    ),
    { name: 'clients list', kind: 'clients', paths: ['/workspace/v1/clients?limit=25'] },
    {
      name: 'client search',
      kind: 'search',
      paths: SEARCHES.map((q) => `/workspace/v1/clients?limit=25&q=${encodeURIComponent(q)}`),
    },
    {
      name: 'timeline',
      kind: 'timeline',
      paths: timelines.map((id) => `/workspace/v1/onboardings/${id}/timeline`),
    },
  ];
}

/** The exports: the whole default view (every onboarding not archived) and one filtered. */
export function exportViews(): View[] {
  return [
    { name: 'CSV export, whole list', kind: 'export', paths: ['/workspace/v1/onboardings/export'] },
    {
      name: 'CSV export, in progress',
      kind: 'export',
      paths: ['/workspace/v1/onboardings/export?status=in_progress'],
    },
  ];
}
