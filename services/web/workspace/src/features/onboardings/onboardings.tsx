import { useCallback, useEffect, useState } from 'preact/hooks';
import type { ApiAnswer, Member } from '../../api.ts';
import { t } from '../../i18n.ts';
import { recordProblem } from '../clients/record-problems.ts';
import { listQuery, ONBOARDING_STATUSES, type Usage } from '../clients/records.ts';
import {
  ErrorMessage,
  ListAction,
  PagedRows,
  ScreenHeading,
  Select,
} from '../../ui/index.ts';
import { listMembers } from '../access/members/api.ts';
import { getUsage, listOnboardings } from './api.ts';
import { memberOptions, OnboardingFacts } from './onboarding-fields.tsx';
import { NewOnboardingDialog } from './new-onboarding-dialog.tsx';

const PAGE = 20;
const NO_FILTERS = { status: '', assignee: '', due: '', archived: 'hide' };

/** Onboardings: the month's usage, filters, the list as cards, and a new draft. */
export function OnboardingsScreen({ navigate }: { navigate: (path: string) => void }) {
  const [filters, setFilters] = useState(NO_FILTERS);
  const [applied, setApplied] = useState(NO_FILTERS);
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState<ApiAnswer<'/workspace/v1/onboardings', 'get'> | null>(null);
  const [usage, setUsage] = useState<Usage | null>(null);
  const [members, setMembers] = useState<Member[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);

  const load = useCallback(async (current: typeof NO_FILTERS, from: number) => {
    const [list, used] = await Promise.all([listOnboardings(listQuery(current, PAGE, from)), getUsage()]);
    if (list.ok) setPage(list.data);
    if (used.ok) setUsage(used.data);
    const failed = !list.ok ? list : !used.ok ? used : null;
    setError(failed && !failed.ok ? recordProblem(failed.problem, t) : null);
  }, []);
  useEffect(() => {
    void load(applied, offset);
  }, [load, applied, offset]);
  useEffect(() => {
    void listMembers().then((answer) => {
      if (answer.ok) setMembers(answer.data.data);
    });
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
      <Filters
        filters={filters}
        members={members}
        onFilters={setFilters}
        onApply={() => {
          setOffset(0);
          setApplied(filters);
        }}
      />
      <PagedRows
        page={page}
        offset={offset}
        size={PAGE}
        onOffset={setOffset}
        none={t(
          JSON.stringify(applied) === JSON.stringify(NO_FILTERS) ? 'onboardings.noneYet' : 'onboardings.none',
        )}
        count={page ? t('onboardings.count', { total: page.total }) : ''}
        countIsStatus
        listClass="rows onboarding-cards"
        href={(onboarding) => `/workspace/onboardings/${onboarding.id}`}
        title={(onboarding) => (
          <>
            {onboarding.client.name ?? onboarding.client.email}
            <span class="visually-hidden">: {onboarding.template.name}</span>
          </>
        )}
        facts={(onboarding) => <OnboardingFacts onboarding={onboarding} />}
        navigate={navigate}
      />
      {creating ? (
        <NewOnboardingDialog
          onClose={() => setCreating(false)}
          onCreated={(id) => navigate(`/workspace/onboardings/${id}`)}
        />
      ) : null}
    </>
  );
}

type Filters = typeof NO_FILTERS;

/** The list's filters: status, assignee, due and archived; applied on submit. */
function Filters({
  filters,
  members,
  onFilters,
  onApply,
}: {
  filters: Filters;
  members: Member[];
  onFilters: (filters: Filters) => void;
  onApply: () => void;
}) {
  return (
    <form
      class="filters"
      aria-label={t('onboardings.filters')}
      onSubmit={(event) => {
        event.preventDefault();
        onApply();
      }}
    >
      <Select
        label={t('onboardings.status')}
        value={filters.status}
        onValue={(status) => onFilters({ ...filters, status })}
        options={[
          { value: '', label: t('onboardings.anyStatus') },
          ...ONBOARDING_STATUSES.map((status) => ({
            value: status,
            label: t(`onboardings.statusLabel.${status}`),
          })),
        ]}
      />
      <Select
        label={t('onboardings.assignee')}
        value={filters.assignee}
        onValue={(assignee) => onFilters({ ...filters, assignee })}
        options={[
          { value: '', label: t('onboardings.anyone') },
          { value: 'unassigned', label: t('onboardings.unassigned') },
          ...memberOptions(members),
        ]}
      />
      <Select
        label={t('onboardings.due')}
        value={filters.due}
        onValue={(due) => onFilters({ ...filters, due })}
        options={[
          { value: '', label: t('onboardings.anyDue') },
          { value: 'overdue', label: t('onboardings.dueOverdue') },
          { value: 'week', label: t('onboardings.dueWeek') },
          { value: 'none', label: t('onboardings.dueNone') },
        ]}
      />
      <Select
        label={t('onboardings.archived')}
        value={filters.archived}
        onValue={(archived) => onFilters({ ...filters, archived })}
        options={[
          { value: 'hide', label: t('onboardings.archivedHide') },
          { value: 'only', label: t('onboardings.archivedOnly') },
        ]}
      />
      <div class="actions">
        <button type="submit" class="button-secondary">
          {t('onboardings.apply')}
        </button>
      </div>
    </form>
  );
}
