import type { Platform } from '../../../shared/app-deps.ts';
import type { RecordedEvent } from '../../../shared/event-store/event-store.ts';
import { isSealed, openSealed } from '../../../shared/privacy/personal-data-vault.ts';
import { storedValue } from '../../../shared/privacy/sealed-columns.ts';
import { teamFacts } from '../../../projections/teams/queries.ts';
import { findField } from '../template-snapshot.ts';
import type { Onboarding } from '../decider/index.ts';
import { readOnboarding } from '../onboarding-unit-of-work.ts';
import { onboardingStreamId, type OnboardingEvent } from '../onboarding-events.ts';
import { copyLocale, submissionCopy, type CopiedStep, type SubmissionFacts } from '../submission-copy.ts';

/**
 * Everything the signed PDF of a completed onboarding shows, read from the onboarding's
 * stream (the answers, file names and signer names opened with the client's key) and the
 * client's and team's rows: the copy of the submission (../submission-copy.ts) and the
 * audit trail (each signature's evidence and the times of the events that led there).
 */

export type RecordDeps = Pick<Platform, 'pool' | 'eventStore' | 'vault'>;

/** A signature and what stands behind it; evidence fields are null on signatures recorded without them. */
export interface SignatureTrail {
  field_id: string;
  field_label: string;
  signer_name: string;
  signer_email: string | null;
  signer_role: 'client' | 'team_member';
  signed_at: string;
  ip: string | null;
  user_agent: string | null;
  consent_text: string | null;
  answers_sha256: string | null;
}

export interface SubmissionRecord {
  onboarding: Onboarding;
  team: { id: string; name: string; email_sender_name: string | null };
  client: { name: string | null; email: string | null; locale: string; timezone: string | null };
  locale: string;
  completed_at: string;
  steps: CopiedStep[];
  signatures: SignatureTrail[];
  /** The events people read on the audit page, oldest first: what happened and when (ISO). */
  trail: { what: string; at: string }[];
}

/** What an event adds to the audit page's list of times (null: not listed); `name`: a step's or field's title. */
function trailLine(
  event: OnboardingEvent,
  name: (id: string) => string,
): { what: string; at: string } | null {
  switch (event.type) {
    case 'onboarding.sent':
      return { what: `Link sent (send ${event.data.send_number})`, at: event.data.sent_at };
    case 'onboarding_reopened':
      return { what: 'Reopened by the team', at: event.data.reopened_at };
    case 'onboarding.started':
      return { what: 'Form opened by the client', at: event.data.started_at };
    case 'response.submitted':
      return { what: `Step "${name(event.data.step_id)}" submitted`, at: event.data.submitted_at };
    case 'signature.signed':
      return { what: `"${name(event.data.field_id)}" signed`, at: event.data.signed_at };
    case 'file.uploaded':
      return { what: `File uploaded to "${name(event.data.field_id)}"`, at: event.data.uploaded_at };
    case 'payment.succeeded':
      return { what: `Payment for "${name(event.data.field_id)}"`, at: event.data.paid_at };
    case 'payment_marked_paid':
      return { what: `Payment for "${name(event.data.field_id)}" marked as paid`, at: event.data.marked_at };
    case 'onboarding.completed':
      return { what: 'Onboarding completed', at: event.data.completed_at };
    default:
      return null;
  }
}

const opener = (deps: RecordDeps) => async (value: unknown) =>
  isSealed(value) ? await deps.vault.open(value) : typeof value === 'string' ? value : null;

/** Files, signatures and payments of the stream, as the copy and the audit page need them. */
async function streamFacts(deps: RecordDeps, onboarding: Onboarding, events: readonly RecordedEvent[]) {
  const open = opener(deps);
  const files: SubmissionFacts['files'][number][] = [];
  const signatures = new Map<string, SignatureTrail>();
  const payments: SubmissionFacts['payments'][number][] = [];
  const trail: SubmissionRecord['trail'] = [];
  const label = (id: string) =>
    findField(onboarding.snapshot, id)?.field.label ??
    onboarding.snapshot.steps.find((step) => step.id === id)?.title ??
    id;
  for (const recorded of events) {
    const event = { type: recorded.type, data: recorded.data } as OnboardingEvent;
    const line = trailLine(event, label);
    if (line) trail.push(line);
    if (event.type === 'file.uploaded' && onboarding.files[event.data.file_id]) {
      files.push({ field_id: event.data.field_id, file_name: (await open(event.data.file_name)) ?? 'file' });
    } else if (event.type === 'signature.signed') {
      const evidence = event.data.evidence;
      signatures.set(`${event.data.field_id}:${event.data.signer_role}`, {
        field_id: event.data.field_id,
        field_label: label(event.data.field_id),
        signer_name: (await open(event.data.signer_name)) ?? '',
        signer_email: await open(event.data.signer_email),
        signer_role: event.data.signer_role,
        signed_at: event.data.signed_at,
        ip: evidence ? await open(evidence.ip) : null,
        user_agent: evidence ? await open(evidence.user_agent) : null,
        consent_text: evidence?.consent_text ?? null,
        answers_sha256: evidence?.answers_sha256 ?? null,
      });
    } else if (event.type === 'payment.succeeded') {
      const config = findField(onboarding.snapshot, event.data.field_id)?.field.config ?? {};
      const currency = typeof config.currency === 'string' ? config.currency : 'usd';
      payments.push({ ...event.data, currency, manual: false });
    } else if (event.type === 'payment_marked_paid') {
      payments.push({ ...event.data, paid_at: event.data.marked_at, manual: true });
    }
  }
  return { files, signatures: [...signatures.values()], payments, trail };
}

/** The submitted answers, opened (null where no longer readable). */
async function openedValues(deps: RecordDeps, onboarding: Onboarding): Promise<Record<string, unknown>> {
  const open = opener(deps);
  const values: Record<string, unknown> = {};
  for (const [fieldId, answer] of Object.entries(onboarding.answers)) {
    if (!answer.submitted) continue;
    const text = await open(answer.value);
    try {
      values[fieldId] = text === null ? null : (JSON.parse(text) as unknown);
    } catch {
      values[fieldId] = null;
    }
  }
  return values;
}

/** The record of a completed onboarding; undefined when it is not completed or its client is gone. */
export async function submissionRecord(
  deps: RecordDeps,
  onboardingId: string,
): Promise<SubmissionRecord | undefined> {
  const { state } = await readOnboarding(deps.eventStore, onboardingId);
  if (state.status !== 'completed' || state.client_erased_at !== null) return undefined;
  const events = await deps.eventStore.readStream(onboardingStreamId(onboardingId));
  const completed = events.filter((event) => event.type === 'onboarding.completed').at(-1);
  const [team, clientRow] = await Promise.all([
    teamFacts(deps.pool, state.team_id),
    deps.pool.query<{ name: unknown; email: unknown; locale: string; timezone: string | null }>(
      `select name, email, locale, timezone from clients
       where id = $1 and team_id = $2 and not client_is_erased(erased_at, email)`,
      [state.client_id, state.team_id],
    ),
  ]);
  const row = clientRow.rows[0];
  if (!team || !row || !completed) return undefined;
  const [name, email] = await openSealed(deps.pool, [storedValue(row.name), storedValue(row.email)]);
  const facts = await streamFacts(deps, state, events);
  const locale = copyLocale(row.locale);
  const steps = submissionCopy({
    snapshot: state.snapshot,
    values: await openedValues(deps, state),
    files: facts.files,
    signatures: facts.signatures.filter((signature) => signature.signer_role === 'client'),
    payments: facts.payments,
    locale,
    timeZone: row.timezone,
  });
  return {
    onboarding: state,
    team: { id: team.id, name: team.name, email_sender_name: team.email_sender_name },
    client: { name: name ?? null, email: email ?? null, locale: row.locale, timezone: row.timezone },
    locale,
    completed_at: (completed.data as { completed_at: string }).completed_at,
    steps,
    signatures: facts.signatures,
    trail: facts.trail,
  };
}
