import { useEffect, useRef, useState } from 'preact/hooks';
import type { ApiAnswer, Member } from '../../api.ts';
import { t } from '../../i18n.ts';
import { recordProblem } from '../clients/record-problems.ts';
import { ONBOARDING_STATUSES, type Usage } from '../clients/records.ts';
import { ErrorMessage, ListAction, Pager, ScreenHeading, Select } from '../../ui/index.ts';
import { listMembers } from '../access/members/api.ts';
import { getUsage } from './api.ts';
import { memberOptions } from './onboarding-fields.tsx';
import { NewOnboardingDialog } from './new-onboarding-dialog.tsx';
import { BulkBar, BulkSummaryView, type BulkSummary } from './bulk-actions.tsx';
import { exportHref, listView } from './list-api.ts';
import { changed, filtering, SORTS, type ListView } from './list-view.ts';
import { OnboardingsTable } from './onboardings-table.tsx';
import { useListView } from './use-list-view.ts';
import './lists.css';

const PAGE = 25;
/** How long the search waits after the last key before it asks. */
const TYPING_MS = 300;

/**
 * Onboardings: the month's usage, a search, filters and an order that apply at once and live
 * in the address, a page of rows with totals, bulk actions on the selected rows, the CSV of
 * the whole view, and a new draft.
 */
export function OnboardingsScreen({ navigate }: { navigate: (path: string) => void }) {
  const [view, setView] = useListView();
  const [page, setPage] = useState<ApiAnswer<'/workspace/v1/onboardings', 'get'> | null>(null);
  const [usage, setUsage] = useState<Usage | null>(null);
  const [members, setMembers] = useState<Member[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [summary, setSummary] = useState<BulkSummary | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let current = true;
    void listView(view, PAGE).then((list) => {
      if (!current) return;
      if (list.ok) setPage(list.data);
      setError(list.ok ? null : recordProblem(list.problem, t));
    });
    return () => {
      current = false;
    };
  }, [view, version]);
  useEffect(() => setSelected(new Set()), [view]);
  useEffect(() => {
    void getUsage().then((used) => used.ok && setUsage(used.data));
    void listMembers().then((answer) => answer.ok && setMembers(answer.data.data));
  }, []);

  return (
    <>
      <ScreenHeading>{t('onboardings.title')}</ScreenHeading>
      {usage ? (
        <p class="usage">
          {usage.limit === 'unlimited'
            ? t('onboardings.usageUnlimited', { used: usage.used })
            : t('onboardings.usage', { used: usage.used, limit: usage.limit })}
        </p>
      ) : null}
      <ErrorMessage text={error} />
      <ListAction label={t('onboardings.new')} onClick={() => setCreating(true)} />
      <SearchBox view={view} onView={setView} />
      <Filters view={view} members={members} onView={setView} />
      <div class="list-tools">
        <p role="status">
          {page
            ? t(page.total_capped ? 'onboardings.countMore' : 'onboardings.count', { total: page.total })
            : ''}
        </p>
        <a class="button-secondary" href={exportHref(view)} download>
          {t('onboardings.list.export')}
        </a>
      </div>
      <BulkSummaryView summary={summary} />
      <BulkBar
        rows={page?.data ?? []}
        selected={selected}
        members={members}
        onDone={(done) => {
          setSummary(done);
          setSelected(new Set());
          setVersion((n) => n + 1);
        }}
      />
      {page === null ? (
        <p class="loading">{t('app.loading')}</p>
      ) : page.data.length === 0 ? (
        <p>{t(filtering(view) ? 'onboardings.none' : 'onboardings.noneYet')}</p>
      ) : (
        <>
          <OnboardingsTable
            rows={page.data}
            selected={selected}
            onSelected={setSelected}
            navigate={navigate}
          />
          <Pager
            offset={(view.page - 1) * PAGE}
            size={PAGE}
            total={page.total}
            capped={page.total_capped}
            shown={page.data.length}
            onOffset={(offset) => setView(changed(view, { page: offset / PAGE + 1 }))}
          />
        </>
      )}
      {creating ? (
        <NewOnboardingDialog
          onClose={() => setCreating(false)}
          onCreated={(id) => navigate(`/workspace/onboardings/${id}`)}
        />
      ) : null}
    </>
  );
}

type ViewProps = { view: ListView; onView: (view: ListView, options?: { replace?: boolean }) => void };

/** The search: it asks as the member types (after a pause), and the address follows. */
function SearchBox({ view, onView }: ViewProps) {
  const [text, setText] = useState(view.q);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => setText(view.q), [view.q]);
  const typed = (value: string) => {
    setText(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(
      () => onView(changed(view, { q: value }), { replace: view.q !== '' }),
      TYPING_MS,
    );
  };
  return (
    <form role="search" class="search-form" onSubmit={(event) => event.preventDefault()}>
      <label for="onboardings-search">{t('onboardings.list.search')}</label>
      <input
        id="onboardings-search"
        type="search"
        value={text}
        aria-describedby="onboardings-search-hint"
        onInput={(event) => typed((event.target as HTMLInputElement).value)}
      />
      <p id="onboardings-search-hint" class="hint">
        {t('onboardings.list.searchHint')}
      </p>
    </form>
  );
}

/** The filters and the order: each applies as it is chosen. */
function Filters({ view, members, onView }: ViewProps & { members: Member[] }) {
  const set = (change: Partial<ListView>) => onView(changed(view, change));
  return (
    <div class="filters" role="group" aria-label={t('onboardings.filters')}>
      <Select
        label={t('onboardings.status')}
        value={view.status}
        onValue={(status) => set({ status: status as ListView['status'] })}
        options={[
          { value: '', label: t('onboardings.anyStatus') },
          ...ONBOARDING_STATUSES.map((status) => ({
            value: status,
            label: t(`onboardings.statusLabel.${status}`),
          })),
        ]}
      />
      <Select
        label={t('onboardings.reviewStateLabel')}
        value={view.review}
        onValue={(review) => set({ review: review as ListView['review'] })}
        options={[
          { value: '', label: t('onboardings.list.anyReview') },
          { value: 'awaiting_review', label: t('onboardings.list.awaitingReview') },
        ]}
      />
      <Select
        label={t('onboardings.assignee')}
        value={view.assignee}
        onValue={(assignee) => set({ assignee })}
        options={[
          { value: '', label: t('onboardings.anyone') },
          { value: 'unassigned', label: t('onboardings.unassigned') },
          ...memberOptions(members),
        ]}
      />
      <Select
        label={t('onboardings.due')}
        value={view.due}
        onValue={(due) => set({ due: due as ListView['due'] })}
        options={[
          { value: '', label: t('onboardings.anyDue') },
          { value: 'overdue', label: t('onboardings.dueOverdue') },
          { value: 'week', label: t('onboardings.dueWeek') },
          { value: 'none', label: t('onboardings.dueNone') },
        ]}
      />
      <Select
        label={t('onboardings.archived')}
        value={view.archived}
        onValue={(archived) => set({ archived: archived as ListView['archived'] })}
        options={[
          { value: 'hide', label: t('onboardings.archivedHide') },
          { value: 'only', label: t('onboardings.archivedOnly') },
        ]}
      />
      <Select
        label={t('onboardings.list.sort')}
        value={view.sort}
        onValue={(sort) => set({ sort: sort as ListView['sort'] })}
        options={SORTS.map((sort) => ({ value: sort, label: t(`onboardings.list.sortBy.${sort}`) }))}
      />
      <Select
        label={t('onboardings.list.direction')}
        value={view.dir}
        onValue={(dir) => set({ dir: dir as ListView['dir'] })}
        options={[
          { value: 'asc', label: t('onboardings.list.ascending') },
          { value: 'desc', label: t('onboardings.list.descending') },
        ]}
      />
    </div>
  );
}
