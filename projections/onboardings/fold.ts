import type { RecordedEvent } from '../../shared/event-store/event-store.ts';
import {
  ONBOARDING_EVENT_TYPES,
  PAYMENT_LIFECYCLE_EVENT_TYPES,
  type OnboardingEvent,
} from '../../services/onboardings/onboarding-events.ts';

/**
 * The pure half of the onboardings read model (projection.ts holds its SQL):
 * a batch's rows of onboardings and onboarding_links evolve one event at a time. Rows hold
 * timestamps, positions and jsonb as PostgreSQL text, so they round-trip exactly.
 */

/** Onboarding events that change no row of this read model. */
const NOT_SHOWN: readonly string[] = [
  'answer_saved',
  'signature.signed',
  'file.uploaded',
  'file_removed',
  'payment.succeeded',
  'onboarding.overdue',
  'client_reminded',
  ...PAYMENT_LIFECYCLE_EVENT_TYPES,
];

export const ONBOARDINGS_HANDLED: readonly string[] = ONBOARDING_EVENT_TYPES.filter(
  (type) => !NOT_SHOWN.includes(type),
);

export interface OnboardingRow {
  id: string;
  team_id: string;
  client_id: string;
  template_id: string;
  template_source: string;
  template_name: string;
  /** jsonb as text */
  template_snapshot: string;
  status: string;
  progress_pct: number;
  created_at: string;
  due_date: string | null;
  due_on: string | null;
  due_timezone: string | null;
  expires_at: string | null;
  assigned_to: string | null;
  archived_at: string | null;
  client_erased_at: string | null;
  send_count: number;
  /**
   * The send whose completion has its signed PDF (onboarding_document_rendered); null before
   * the first. The documents pass finds the completions still without one by it (migration 158).
   */
  documented_send: number | null;
  last_sent_at: string | null;
  updated_at: string;
  position: string;
  /** The revision of the onboarding's stream this row has applied, as text. */
  stream_revision: string;
  /** jsonb as text: the answers sent back, by field id (infra/migrations/139). */
  review_fields: string;
}

/** Where an answer the team sent back stands (infra/migrations/139_onboarding_review_state.sql). */
export type ReviewField = 'sent_back' | 'resubmitted';

export interface LinkRow {
  token_hash: string;
  onboarding_id: string;
  team_id: string;
  send_number: number;
  issued_at: string;
  deactivated_at: string | null;
}

export interface OnboardingsBatch {
  /** By lower-case onboarding id: the rows the batch touches, loaded or new. */
  rows: Map<string, OnboardingRow>;
  dirtyRows: Set<string>;
  /** By token hash. */
  links: Map<string, LinkRow>;
  /** Token hashes per lower-case onboarding id, in no particular order. */
  linksOf: Map<string, string[]>;
  dirtyLinks: Set<string>;
  /** A rebuild's batch: the keys of the rows and links read from the table (the others are new). */
  stored?: { rows: ReadonlySet<string>; links: ReadonlySet<string> };
}

export const onboardingKey = (id: string) => id.toLowerCase();

/** A batch of the given loaded rows, with its link index. */
export function onboardingsBatch(rows: OnboardingRow[], links: LinkRow[]): OnboardingsBatch {
  const batch: OnboardingsBatch = {
    rows: new Map(rows.map((row) => [onboardingKey(row.id), row])),
    dirtyRows: new Set(),
    links: new Map(links.map((row) => [row.token_hash, row])),
    linksOf: new Map(),
    dirtyLinks: new Set(),
  };
  for (const row of links) indexLink(batch, row);
  return batch;
}

function indexLink(batch: OnboardingsBatch, row: LinkRow): void {
  const key = onboardingKey(row.onboarding_id);
  const list = batch.linksOf.get(key);
  if (list) list.push(row.token_hash);
  else batch.linksOf.set(key, [row.token_hash]);
}

function update(batch: OnboardingsBatch, id: string, changes: Partial<OnboardingRow>): void {
  const key = onboardingKey(id);
  const row = batch.rows.get(key);
  if (!row) return;
  Object.assign(row, changes);
  batch.dirtyRows.add(key);
}

function deactivateLinks(batch: OnboardingsBatch, id: string, at: string): void {
  for (const tokenHash of batch.linksOf.get(onboardingKey(id)) ?? []) {
    const link = batch.links.get(tokenHash)!;
    if (link.deactivated_at !== null) continue;
    link.deactivated_at = at;
    batch.dirtyLinks.add(tokenHash);
  }
}

function insertLink(batch: OnboardingsBatch, row: LinkRow): void {
  if (batch.links.has(row.token_hash)) return;
  batch.links.set(row.token_hash, row);
  indexLink(batch, row);
  batch.dirtyLinks.add(row.token_hash);
}

/**
 * Every row follows one onboarding's stream, so the stream revision it applied last tells
 * an event it already has: the command's transaction applied it inline
 * (shared/projections/inline-projections.ts) before the runner got it from the log.
 */
function alreadyApplied(batch: OnboardingsBatch, id: string, recorded: RecordedEvent): boolean {
  const row = batch.rows.get(onboardingKey(id));
  return row !== undefined && BigInt(row.stream_revision) >= recorded.revision;
}

export function foldOnboarding(batch: OnboardingsBatch, recorded: RecordedEvent): OnboardingsBatch {
  const event = { type: recorded.type, data: recorded.data } as OnboardingEvent;
  const id = event.data.onboarding_id;
  if (alreadyApplied(batch, id, recorded)) return batch;
  applyEvent(batch, event, recorded);
  update(batch, id, { stream_revision: String(recorded.revision) });
  return batch;
}

type CreatedEvent = Extract<OnboardingEvent, { type: 'onboarding_created' }>;

function createOnboarding(batch: OnboardingsBatch, event: CreatedEvent, recorded: RecordedEvent): void {
  const { data } = event;
  const id = data.onboarding_id;
  const key = onboardingKey(id);
  if (!batch.rows.has(key)) {
    batch.rows.set(key, {
      id,
      team_id: data.team_id,
      client_id: data.client_id,
      template_id: data.template_id,
      template_source: data.template_source,
      template_name: data.template_snapshot.name,
      template_snapshot: JSON.stringify(data.template_snapshot),
      status: 'draft',
      progress_pct: 0,
      created_at: data.created_at,
      due_date: data.due_date ?? null,
      due_on: data.due_on ?? null,
      due_timezone: data.due_timezone ?? null,
      expires_at: data.expires_at ?? null,
      assigned_to: null,
      archived_at: null,
      client_erased_at: null,
      send_count: 0,
      documented_send: null,
      last_sent_at: null,
      updated_at: data.created_at,
      position: String(recorded.position),
      stream_revision: String(recorded.revision),
      review_fields: '{}',
    });
    batch.dirtyRows.add(key);
  }
  insertLink(batch, {
    token_hash: data.token_hash,
    onboarding_id: id,
    team_id: data.team_id,
    send_number: 0,
    issued_at: data.created_at,
    deactivated_at: null,
  });
}

/** A send or a reopening issues a new link and deactivates the earlier ones. */
function replaceLink(
  batch: OnboardingsBatch,
  id: string,
  teamId: string,
  tokenHash: string,
  sendNumber: number,
  at: string,
): void {
  deactivateLinks(batch, id, at);
  insertLink(batch, {
    token_hash: tokenHash,
    onboarding_id: id,
    team_id: teamId,
    send_number: sendNumber,
    issued_at: at,
    deactivated_at: null,
  });
}

function applyEvent(batch: OnboardingsBatch, event: OnboardingEvent, recorded: RecordedEvent): void {
  const id = event.data.onboarding_id;
  switch (event.type) {
    case 'onboarding_created':
      createOnboarding(batch, event, recorded);
      break;
    case 'onboarding_updated': {
      const { changes, updated_at } = event.data;
      if ('due_date' in changes) {
        update(batch, id, {
          due_date: changes.due_date ?? null,
          due_on: changes.due_on ?? null,
          due_timezone: changes.due_timezone ?? null,
        });
      }
      if (changes.assigned_to !== undefined) update(batch, id, { assigned_to: changes.assigned_to });
      update(batch, id, { updated_at });
      break;
    }
    case 'onboarding_marked_in_progress':
      update(batch, id, { status: 'in_progress', updated_at: event.data.marked_at });
      break;
    case 'onboarding_cancelled':
      update(batch, id, { status: 'cancelled', updated_at: event.data.cancelled_at });
      deactivateLinks(batch, id, event.data.cancelled_at);
      break;
    case 'onboarding.sent': {
      const { data } = event;
      update(batch, id, {
        status: data.status,
        send_count: data.send_number,
        last_sent_at: data.sent_at,
        updated_at: data.sent_at,
      });
      replaceLink(batch, id, data.team_id, data.token_hash, data.send_number, data.sent_at);
      break;
    }
    case 'onboarding.started':
      update(batch, id, { status: 'in_progress', updated_at: event.data.started_at });
      break;
    case 'response.submitted':
      update(batch, id, { progress_pct: event.data.progress_pct, updated_at: event.data.submitted_at });
      resubmitted(batch, id, event.data.step_id);
      break;
    case 'response_rejected':
    case 'response_changes_requested':
      changeReview(batch, id, (fields) => ({ ...fields, [event.data.field_id]: 'sent_back' }));
      break;
    case 'response_approved':
      changeReview(batch, id, (fields) =>
        Object.fromEntries(Object.entries(fields).filter(([fieldId]) => fieldId !== event.data.field_id)),
      );
      break;
    case 'onboarding.completed':
      update(batch, id, { status: 'completed', progress_pct: 100, updated_at: event.data.completed_at });
      break;
    case 'onboarding_expired':
      update(batch, id, { status: 'expired', updated_at: event.data.expired_at });
      break;
    case 'onboarding_archived':
      update(batch, id, { archived_at: event.data.archived_at, updated_at: event.data.archived_at });
      break;
    case 'onboarding_unarchived':
      update(batch, id, { archived_at: null, updated_at: event.data.unarchived_at });
      break;
    case 'onboarding_reopened': {
      const { data } = event;
      update(batch, id, {
        status: data.status,
        send_count: data.send_number,
        last_sent_at: data.reopened_at,
        expires_at: data.expires_at,
        updated_at: data.reopened_at,
        // A reopen since 2026-11-28 says how far the form stands once its steps are open again.
        ...(data.progress_pct === undefined ? {} : { progress_pct: data.progress_pct }),
      });
      replaceLink(batch, id, data.team_id, data.token_hash, data.send_number, data.reopened_at);
      break;
    }
    case 'onboarding_client_erased':
      update(batch, id, { client_erased_at: event.data.erased_at, updated_at: event.data.erased_at });
      deactivateLinks(batch, id, event.data.erased_at);
      break;
    case 'onboarding_template_refreshed':
      update(batch, id, {
        template_name: event.data.template_snapshot.name,
        template_snapshot: JSON.stringify(event.data.template_snapshot),
        updated_at: event.data.refreshed_at,
      });
      break;
    case 'answer_saved':
    case 'signature.signed':
    case 'file.uploaded':
    case 'file_removed':
    case 'payment.succeeded':
    case 'onboarding.overdue':
    case 'payment_failed':
    case 'payment_renewed':
    case 'payment_subscription_ended':
    case 'payment_refunded':
    case 'payment_marked_paid':
    case 'client_reminded':
      break;
    case 'onboarding_document_rendered': {
      // The document is of the send that completed: the row's send count when it was recorded.
      const row = batch.rows.get(onboardingKey(id));
      if (row) update(batch, id, { documented_send: row.send_count });
      break;
    }
    default: {
      const _exhaustive: never = event;
      break;
    }
  }
}

type ReviewFields = Record<string, ReviewField>;

function changeReview(batch: OnboardingsBatch, id: string, change: (fields: ReviewFields) => ReviewFields) {
  const row = batch.rows.get(onboardingKey(id));
  if (!row) return;
  update(batch, id, { review_fields: JSON.stringify(change(JSON.parse(row.review_fields) as ReviewFields)) });
}

/** Submitting a step again returns its answers sent back to the team (as the decider's evolve does). */
function resubmitted(batch: OnboardingsBatch, id: string, stepId: string): void {
  const row = batch.rows.get(onboardingKey(id));
  if (!row || row.review_fields === '{}') return;
  const snapshot = JSON.parse(row.template_snapshot) as { steps: { id: string; fields: { id: string }[] }[] };
  const inStep = new Set(snapshot.steps.find((step) => step.id === stepId)?.fields.map((field) => field.id));
  changeReview(batch, id, (fields) =>
    Object.fromEntries(
      Object.entries(fields).map(([fieldId, state]) => [
        fieldId,
        inStep.has(fieldId) ? 'resubmitted' : state,
      ]),
    ),
  );
}

/**
 * The review state the workspace shows beside the public status: changes_requested while
 * an answer sent back waits on the client, awaiting_review while a resubmitted one waits
 * on the team; null otherwise, and for an onboarding neither in progress nor completed.
 */
export function reviewState(
  status: string,
  fields: Readonly<Record<string, string>>,
): 'changes_requested' | 'awaiting_review' | null {
  if (status !== 'in_progress' && status !== 'completed') return null;
  const states = Object.values(fields);
  if (states.includes('sent_back')) return 'changes_requested';
  return states.includes('resubmitted') ? 'awaiting_review' : null;
}
