import { useState } from 'preact/hooks';
import type { Member } from '../../api.ts';
import { t } from '../../i18n.ts';
import type { OnboardingView } from '../clients/records.ts';
import { Dialog, ErrorMessage, Select, useAction } from '../../ui/index.ts';
import { bulkAction, type BulkBody } from './list-api.ts';
import { memberOptions } from './onboarding-fields.tsx';

export type BulkKind = BulkBody['action'];
const KINDS: readonly BulkKind[] = ['remind', 'archive', 'assign'];

/** What a bulk action did, in words: how many were done, and each refusal with its row and reason. */
export interface BulkSummary {
  kind: BulkKind;
  done: number;
  refused: { id: string; name: string; reason: string }[];
}

/** A refusal's reason in the member's words; the server's own words for a code we do not know. */
function reasonOf(code: string, error: string): string {
  const known = ['reminder_limit_reached', 'invalid_state', 'target_unavailable', 'sending_paused'];
  return known.includes(code) ? t(`onboardings.bulk.refusal.${code}`) : error;
}

/**
 * The bar of the selected rows: how many, and send a reminder, archive or assign them, each
 * after one confirmation that names how many rows it acts on.
 */
export function BulkBar({
  rows,
  selected,
  members,
  onDone,
}: {
  rows: readonly OnboardingView[];
  selected: ReadonlySet<string>;
  members: readonly Member[];
  onDone: (summary: BulkSummary) => void;
}) {
  const [asking, setAsking] = useState<BulkKind | null>(null);
  if (selected.size === 0) return null;
  return (
    <div class="bulk-bar" role="group" aria-label={t('onboardings.bulk.label')}>
      <span>{t('onboardings.bulk.selected', { count: selected.size })}</span>
      {KINDS.map((kind) => (
        <button key={kind} type="button" class="button-secondary" onClick={() => setAsking(kind)}>
          {t(`onboardings.bulk.${kind}`)}
        </button>
      ))}
      {asking ? (
        <BulkDialog
          kind={asking}
          ids={[...selected]}
          rows={rows}
          members={members}
          onClose={() => setAsking(null)}
          onDone={(summary) => {
            setAsking(null);
            onDone(summary);
          }}
        />
      ) : null}
    </div>
  );
}

function BulkDialog({
  kind,
  ids,
  rows,
  members,
  onClose,
  onDone,
}: {
  kind: BulkKind;
  ids: string[];
  rows: readonly OnboardingView[];
  members: readonly Member[];
  onClose: () => void;
  onDone: (summary: BulkSummary) => void;
}) {
  const [assignee, setAssignee] = useState('');
  const { busy, error, run, fail } = useAction();
  const nameOf = (id: string) => {
    const row = rows.find((one) => one.id === id);
    return row ? `${row.client.name ?? row.client.email ?? ''} (${row.template.name})` : id;
  };
  const confirm = async () => {
    const answer = await run(() =>
      bulkAction({ action: kind, ids, ...(kind === 'assign' ? { assigned_to: assignee || null } : {}) }),
    );
    if (answer === undefined) return;
    if (!answer.ok) return fail(answer.problem);
    onDone({
      kind,
      done: answer.data.done.length,
      refused: answer.data.refused.map((one) => ({
        id: one.id,
        name: nameOf(one.id),
        reason: reasonOf(one.code, one.error),
      })),
    });
  };
  return (
    <Dialog title={t(`onboardings.bulk.${kind}Title`, { count: ids.length })} onClose={onClose}>
      <p>{t(`onboardings.bulk.${kind}Intro`, { count: ids.length })}</p>
      {kind === 'assign' ? (
        <Select
          label={t('onboardings.assignee')}
          value={assignee}
          onValue={setAssignee}
          options={[{ value: '', label: t('onboardings.unassigned') }, ...memberOptions(members)]}
        />
      ) : null}
      <ErrorMessage text={error} />
      <div class="actions">
        <button
          type="button"
          class="button-primary"
          aria-disabled={busy || undefined}
          onClick={() => void confirm()}
        >
          {t(`onboardings.bulk.${kind}Confirm`, { count: ids.length })}
        </button>
        <button type="button" class="button-secondary" onClick={onClose} autoFocus>
          {t('dialog.cancel')}
        </button>
      </div>
    </Dialog>
  );
}

/** The summary of the last bulk action: a polite status, then each refusal and why. */
export function BulkSummaryView({ summary }: { summary: BulkSummary | null }) {
  return (
    <div role="status" class="bulk-summary">
      {summary ? (
        <>
          <p>
            {t(`onboardings.bulk.${summary.kind}Done`, { count: summary.done })}{' '}
            {summary.refused.length
              ? t('onboardings.bulk.refusedCount', { count: summary.refused.length })
              : ''}
          </p>
          {summary.refused.length ? (
            <ul>
              {summary.refused.map((one) => (
                <li key={one.id}>
                  {one.name}: {one.reason}
                </li>
              ))}
            </ul>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
