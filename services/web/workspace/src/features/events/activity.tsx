import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { ApiAnswer } from '../../api.ts';
import { listMembers } from '../access/members/api.ts';
import { listAudit } from './api.ts';
import { activitySentence } from './activity-sentence.ts';
import { formatDateTime } from '../../dates.ts';
import { t } from '../../i18n.ts';
import { problemMessage } from '../../problems.ts';
import { ErrorMessage, ScreenHeading, Status } from '../../ui/index.ts';

const PAGE = 25;

/** One audit entry (GET /workspace/v1/audit). */
type AuditEntry = ApiAnswer<'/workspace/v1/audit', 'get'>['data'][number];

/** Activity: the team's audit list, newest first, a page at a time. */
export function ActivityScreen() {
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [names, setNames] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // After "Show older activity", focus moves to the first older entry (the button may be gone).
  const [focusFrom, setFocusFrom] = useState<number | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const shown = useRef(0);

  const load = useCallback(async (cursor: string | null) => {
    setBusy(true);
    const answer = await listAudit(PAGE, cursor);
    setBusy(false);
    if (!answer.ok) return setError(problemMessage(answer.problem, t));
    setError(null);
    const older = answer.data.data;
    if (cursor) {
      setEntries((now) => [...(now ?? []), ...older]);
      setFocusFrom(shown.current);
    } else setEntries(older);
    setNext(answer.data.next_cursor);
    if (cursor) setStatus(t('activity.loaded', { count: answer.data.data.length }));
  }, []);

  useEffect(() => {
    void load(null);
    void listMembers().then((answer) => {
      if (answer.ok) setNames(Object.fromEntries(answer.data.data.map((member) => [member.id, member.name])));
    });
  }, [load]);

  shown.current = entries?.length ?? 0;
  useEffect(() => {
    if (focusFrom === null) return;
    (list.current?.children[focusFrom] as HTMLElement | undefined)?.focus();
    setFocusFrom(null);
  }, [focusFrom, entries]);

  return (
    <>
      <ScreenHeading>{t('activity.title')}</ScreenHeading>
      <Status text={status} />
      <ErrorMessage text={error} />
      {entries === null ? (
        <p class="loading">{t('app.loading')}</p>
      ) : entries.length === 0 ? (
        <p>{t('activity.none')}</p>
      ) : (
        <ol class="rows" ref={list}>
          {entries.map((entry) => (
            <li key={entry.id} class="row" tabIndex={-1}>
              <p class="row-title">{activitySentence(entry, t)}</p>
              {typeof entry.data['codes_left'] === 'number' ? (
                <p>{t('activity.codesLeft', { count: entry.data['codes_left'] })}</p>
              ) : null}
              <p class="muted">
                <time dateTime={entry.occurred_at}>{formatDateTime(entry.occurred_at)}</time>
                {' · '}
                {entry.actor_member_id
                  ? (names[entry.actor_member_id] ?? t('activity.formerMember'))
                  : t('activity.system')}
              </p>
            </li>
          ))}
        </ol>
      )}
      {next ? (
        <button
          type="button"
          class="button-secondary"
          aria-disabled={busy || undefined}
          onClick={() => {
            if (!busy) void load(next);
          }}
        >
          {t('activity.older')}
        </button>
      ) : null}
    </>
  );
}
