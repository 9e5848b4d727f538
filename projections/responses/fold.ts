import type { RecordedEvent } from '../../shared/event-store/event-store.ts';
import type { OnboardingEvent } from '../../services/onboardings/onboarding-events.ts';
import { isSealed } from '../../shared/privacy/personal-data-vault.ts';

/**
 * The pure half of the responses read model (projection.ts holds its SQL): a
 * batch's rows of responses and response_onboardings evolve one event at a time. Sealed
 * client-entered values arrive as the sealed envelopes the rows keep (`opened`, by event id;
 * shared/privacy/sealed-columns.ts): the readers open them. Signatures of team members (countersignatures)
 * are not responses. Rows hold timestamps, positions and jsonb as PostgreSQL text, so they
 * round-trip exactly.
 */

const ONBOARDING_EVENTS = [
  'onboarding_created',
  'answer_saved',
  'response.submitted',
  'signature.signed',
  'file.uploaded',
  'file_removed',
  'onboarding_client_erased',
  'response_approved',
  'response_rejected',
  'response_changes_requested',
] as const satisfies readonly OnboardingEvent['type'][];

/**
 * The one event of the clients feature this read model follows: an erased client's values
 * are nulled in every onboarding of that client. It is read through `clientErasure` only.
 */
export const CLIENT_ERASED = 'client.erased';

function clientErasure(event: RecordedEvent): { clientId: string; erasedAt: string } | undefined {
  if (event.type !== CLIENT_ERASED) return undefined;
  const data = event.data as { client_id: string; erased_at: string };
  return { clientId: data.client_id, erasedAt: data.erased_at };
}

export const RESPONSES_HANDLED: readonly string[] = [...ONBOARDING_EVENTS, CLIENT_ERASED];

export interface ResponseRow {
  id: string;
  onboarding_id: string;
  team_id: string;
  client_id: string;
  step_id: string;
  field_id: string;
  kind: string;
  /** jsonb as text */
  value: string | null;
  status: string;
  rejection_reason: string | null;
  created_at: string;
  updated_at: string;
  position: string;
  /** False for a reviewed version the client has since changed (kept with its review). */
  current: boolean;
}

/** A reviewed status the client may answer again: the next value is a new version. */
const SENT_BACK = new Set(['rejected', 'changes_requested']);

const REVIEWED_STATUS = {
  response_approved: 'approved',
  response_rejected: 'rejected',
  response_changes_requested: 'changes_requested',
} as const;

export interface ResponseOnboardingRow {
  onboarding_id: string;
  team_id: string;
  client_id: string;
}

export interface ResponsesBatch {
  /** By lower-case onboarding id. */
  onboardings: Map<string, ResponseOnboardingRow>;
  dirtyOnboardings: Set<string>;
  /** Current responses per lower-case onboarding id, then per field id. */
  rows: Map<string, Map<string, ResponseRow>>;
  /** Earlier reviewed versions (current false), per lower-case onboarding id. */
  earlier: Map<string, ResponseRow[]>;
  dirty: Set<ResponseRow>;
  /** Rows to delete: a file response whose file the client removed. */
  removed: Set<ResponseRow>;
  /** By event id: its sealed values as the rows keep them (envelopes; null: none). */
  opened: Map<string, unknown[]>;
  /** A rebuild's batch: the onboarding keys and response ids read from the tables (the others are new). */
  stored?: { onboardings: ReadonlySet<string>; responses: ReadonlySet<string> };
}

export const responseKey = (id: string) => id.toLowerCase();

/** The values of an event that `sealedValuesOf` names, in the order the fold reads them. */
export function sealedValuesOf(recorded: RecordedEvent): unknown[] {
  const event = { type: recorded.type, data: recorded.data } as OnboardingEvent;
  switch (event.type) {
    case 'answer_saved':
      return isSealed(event.data.value) ? [event.data.value] : [];
    case 'signature.signed':
      return event.data.signer_role === 'client' ? [event.data.signer_name, event.data.signer_email] : [];
    case 'file.uploaded':
      return [event.data.file_name];
    default:
      return [];
  }
}

/** The onboarding an event of this read model belongs to (undefined for a client erasure). */
export function onboardingOf(recorded: RecordedEvent): string | undefined {
  if (clientErasure(recorded)) return undefined;
  return (recorded.data as { onboarding_id: string }).onboarding_id;
}

/** The client an event of this read model erases, if any. */
export const erasedClientOf = (recorded: RecordedEvent) => clientErasure(recorded)?.clientId;

/** A batch of the given loaded rows. */
export function responsesBatch(
  onboardings: ResponseOnboardingRow[],
  responses: ResponseRow[],
  opened: Map<string, unknown[]>,
): ResponsesBatch {
  const batch: ResponsesBatch = {
    onboardings: new Map(onboardings.map((row) => [responseKey(row.onboarding_id), row])),
    dirtyOnboardings: new Set(),
    rows: new Map(),
    earlier: new Map(),
    dirty: new Set(),
    removed: new Set(),
    opened,
  };
  for (const row of responses) {
    if (row.current) rowsOf(batch, row.onboarding_id).set(row.field_id, row);
    else earlierOf(batch, row.onboarding_id).push(row);
  }
  return batch;
}

function rowsOf(batch: ResponsesBatch, onboardingId: string): Map<string, ResponseRow> {
  const key = responseKey(onboardingId);
  let fields = batch.rows.get(key);
  if (!fields) batch.rows.set(key, (fields = new Map()));
  return fields;
}

function earlierOf(batch: ResponsesBatch, onboardingId: string): ResponseRow[] {
  const key = responseKey(onboardingId);
  let rows = batch.earlier.get(key);
  if (!rows) batch.earlier.set(key, (rows = []));
  return rows;
}

/** The sealed values of the event, or null when any of them is missing. */
function openedAll(batch: ResponsesBatch, recorded: RecordedEvent): unknown[] | null {
  const values = batch.opened.get(recorded.id) ?? [];
  return values.some((value) => value === null) ? null : values;
}

/** Inserts the field's response, or replaces its value (a later answer makes it a draft again). */
function upsert(
  batch: ResponsesBatch,
  recorded: RecordedEvent,
  row: {
    id: string;
    onboarding_id: string;
    step_id: string;
    field_id: string;
    kind: 'answer' | 'signature' | 'file';
    value: unknown;
    at: string;
  },
): void {
  const onboarding = batch.onboardings.get(responseKey(row.onboarding_id));
  if (!onboarding) return;
  const value = row.value === null ? null : (JSON.stringify(row.value) ?? null);
  const fields = rowsOf(batch, row.onboarding_id);
  let existing = fields.get(row.field_id);
  if (existing && SENT_BACK.has(existing.status) && responseKey(existing.id) !== responseKey(row.id)) {
    // The client changed an answer the team sent back: the reviewed version stays as it is.
    keepAsEarlier(batch, existing);
    existing = undefined;
  }
  if (existing) {
    Object.assign(existing, { kind: row.kind, value, status: 'draft', updated_at: row.at });
    batch.dirty.add(existing);
    return;
  }
  const created: ResponseRow = {
    id: row.id,
    onboarding_id: onboarding.onboarding_id,
    team_id: onboarding.team_id,
    client_id: onboarding.client_id,
    step_id: row.step_id,
    field_id: row.field_id,
    kind: row.kind,
    value,
    status: 'draft',
    rejection_reason: null,
    created_at: row.at,
    updated_at: row.at,
    position: String(recorded.position),
    current: true,
  };
  fields.set(row.field_id, created);
  batch.dirty.add(created);
}

function keepAsEarlier(batch: ResponsesBatch, row: ResponseRow): void {
  rowsOf(batch, row.onboarding_id).delete(row.field_id);
  row.current = false;
  earlierOf(batch, row.onboarding_id).push(row);
  batch.dirty.add(row);
}

function nullValues(batch: ResponsesBatch, rows: Iterable<ResponseRow>, at: string): void {
  for (const row of rows) {
    Object.assign(row, { value: null, updated_at: at });
    batch.dirty.add(row);
  }
}

/** An erased client's values are nulled in every onboarding of that client. */
function eraseClient(batch: ResponsesBatch, erasure: { clientId: string; erasedAt: string }): void {
  const clientId = responseKey(erasure.clientId);
  for (const fields of batch.rows.values()) {
    const ofClient = [...fields.values()].filter((row) => responseKey(row.client_id) === clientId);
    nullValues(batch, ofClient, erasure.erasedAt);
  }
  for (const rows of batch.earlier.values()) {
    nullValues(
      batch,
      rows.filter((row) => responseKey(row.client_id) === clientId),
      erasure.erasedAt,
    );
  }
}

type EventOf<T extends OnboardingEvent['type']> = Extract<OnboardingEvent, { type: T }>;

function addOnboarding(batch: ResponsesBatch, event: EventOf<'onboarding_created'>): void {
  const key = responseKey(event.data.onboarding_id);
  if (batch.onboardings.has(key)) return;
  batch.onboardings.set(key, {
    onboarding_id: event.data.onboarding_id,
    team_id: event.data.team_id,
    client_id: event.data.client_id,
  });
  batch.dirtyOnboardings.add(key);
}

function saveAnswer(batch: ResponsesBatch, recorded: RecordedEvent, event: EventOf<'answer_saved'>): void {
  const { data } = event;
  let value: unknown = data.value;
  if (isSealed(data.value)) value = batch.opened.get(recorded.id)?.[0] ?? null;
  upsert(batch, recorded, {
    id: data.response_id,
    onboarding_id: data.onboarding_id,
    step_id: data.step_id,
    field_id: data.field_id,
    kind: 'answer',
    value,
    at: data.saved_at,
  });
}

function saveSignature(
  batch: ResponsesBatch,
  recorded: RecordedEvent,
  event: EventOf<'signature.signed'>,
): void {
  const { data } = event;
  if (data.signer_role !== 'client') return;
  const texts = openedAll(batch, recorded);
  upsert(batch, recorded, {
    id: data.signature_id,
    onboarding_id: data.onboarding_id,
    step_id: data.step_id,
    field_id: data.field_id,
    kind: 'signature',
    value: texts && {
      signature_id: data.signature_id,
      signer_name: texts[0],
      signer_email: texts[1],
      signed_at: data.signed_at,
    },
    at: data.signed_at,
  });
}

function saveFile(batch: ResponsesBatch, recorded: RecordedEvent, event: EventOf<'file.uploaded'>): void {
  const { data } = event;
  const texts = openedAll(batch, recorded);
  upsert(batch, recorded, {
    id: data.file_id,
    onboarding_id: data.onboarding_id,
    step_id: data.step_id,
    field_id: data.field_id,
    kind: 'file',
    value: texts && {
      file_id: data.file_id,
      file_name: texts[0],
      content_type: data.content_type,
      size_bytes: data.size_bytes,
    },
    at: data.uploaded_at,
  });
}

/**
 * The field's response shows its latest file; once that file is removed the field has no
 * response (the client's remaining files stay in onboarding_files).
 */
function removeFile(batch: ResponsesBatch, event: EventOf<'file_removed'>): void {
  const { data } = event;
  const fields = rowsOf(batch, data.onboarding_id);
  const row = fields.get(data.field_id);
  if (!row || row.kind !== 'file' || row.value === null) return;
  const shown = (JSON.parse(row.value) as { file_id?: string }).file_id;
  if (shown !== data.file_id) return;
  if (SENT_BACK.has(row.status)) {
    keepAsEarlier(batch, row);
    return;
  }
  fields.delete(data.field_id);
  batch.dirty.delete(row);
  batch.removed.add(row);
}

function submitStep(batch: ResponsesBatch, event: EventOf<'response.submitted'>): void {
  const fields = rowsOf(batch, event.data.onboarding_id);
  for (const row of fields.values()) {
    // Approved answers stay approved; sent-back ones return to submitted.
    if (row.step_id !== event.data.step_id || row.status === 'approved') continue;
    Object.assign(row, {
      status: 'submitted',
      rejection_reason: null,
      updated_at: event.data.submitted_at,
    });
    batch.dirty.add(row);
  }
}

function review(
  batch: ResponsesBatch,
  event: EventOf<'response_approved' | 'response_rejected' | 'response_changes_requested'>,
): void {
  const row = rowsOf(batch, event.data.onboarding_id).get(event.data.field_id);
  if (!row) return;
  Object.assign(row, {
    status: REVIEWED_STATUS[event.type],
    // The rejection reason, or the note of a request for changes.
    rejection_reason: event.type === 'response_approved' ? null : event.data.reason,
    updated_at: event.data.reviewed_at,
  });
  batch.dirty.add(row);
}

export function foldResponse(batch: ResponsesBatch, recorded: RecordedEvent): ResponsesBatch {
  const erasure = clientErasure(recorded);
  if (erasure) {
    eraseClient(batch, erasure);
    return batch;
  }
  const event = { type: recorded.type, data: recorded.data } as OnboardingEvent;
  switch (event.type) {
    case 'onboarding_created':
      addOnboarding(batch, event);
      break;
    case 'answer_saved':
      saveAnswer(batch, recorded, event);
      break;
    case 'signature.signed':
      saveSignature(batch, recorded, event);
      break;
    case 'file.uploaded':
      saveFile(batch, recorded, event);
      break;
    case 'file_removed':
      removeFile(batch, event);
      break;
    case 'response.submitted':
      submitStep(batch, event);
      break;
    case 'response_approved':
    case 'response_rejected':
    case 'response_changes_requested':
      review(batch, event);
      break;
    case 'onboarding_client_erased':
      nullValues(batch, rowsOf(batch, event.data.onboarding_id).values(), event.data.erased_at);
      nullValues(batch, earlierOf(batch, event.data.onboarding_id), event.data.erased_at);
      break;
    default:
      break;
  }
  return batch;
}
