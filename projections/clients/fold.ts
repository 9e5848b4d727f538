import type { RecordedEvent } from '../../shared/event-store/event-store.ts';
import type { ClientEvent } from '../../services/clients/client-events.ts';

/**
 * The pure half of the clients read model (projection.ts holds its SQL): a batch's
 * rows evolve one event at a time. Personal fields arrive opened (`opened`, by event id):
 * opening needs the key table, so the SQL half does it before the fold.
 */

export const CLIENT_EVENT_TYPES = ['client.created', 'client.updated', 'client.erased'] as const;

/** A row of `clients`; timestamps, positions and jsonb as PostgreSQL text, so rows round-trip exactly. */
export interface ClientRow {
  id: string;
  team_id: string;
  name: string | null;
  email: string | null;
  company: string | null;
  phone: string | null;
  notes: string | null;
  /** jsonb as text */
  custom_fields: string;
  locale: string;
  date_format: string;
  timezone: string;
  /** Whether the client chose its language and date format (docs/decisions/0078). */
  locale_chosen: boolean;
  date_format_chosen: boolean;
  created_at: string;
  erased_at: string | null;
  position: string;
}

/** The personal fields of a client.created, opened (null: no value, or its key is erased). */
export interface OpenedClient {
  name: string | null;
  email: string | null;
  company: string | null;
  phone: string | null;
  notes: string | null;
  /** jsonb as text */
  custom_fields: string | null;
}

export interface ClientsBatch {
  /** By lower-case client id: the rows the batch touches, loaded or new. */
  rows: Map<string, ClientRow>;
  /** Keys of the rows to write. */
  dirty: Set<string>;
  /** By event id: the opened personal fields of each client.created of the batch. */
  opened: Map<string, OpenedClient>;
  /** By event id: the opened changes of each client.updated of the batch (absent: unchanged). */
  openedChanges?: Map<string, Partial<OpenedClient>>;
  /** A rebuild's batch: the keys of the rows read from the table (the others are new). */
  stored?: ReadonlySet<string>;
}

export const clientKey = (id: string) => id.toLowerCase();

export function foldClient(batch: ClientsBatch, recorded: RecordedEvent): ClientsBatch {
  const event = { type: recorded.type, data: recorded.data } as ClientEvent;
  switch (event.type) {
    case 'client.created': {
      const { data } = event;
      const key = clientKey(data.client_id);
      if (batch.rows.has(key)) break;
      const opened = batch.opened.get(recorded.id);
      batch.rows.set(key, {
        id: data.client_id,
        team_id: data.team_id,
        name: opened?.name ?? null,
        email: opened?.email ?? null,
        company: opened?.company ?? null,
        phone: opened?.phone ?? null,
        notes: opened?.notes ?? null,
        custom_fields: opened?.custom_fields ?? '{}',
        locale: data.locale,
        date_format: data.date_format,
        timezone: data.timezone,
        locale_chosen: data.locale_chosen ?? true,
        date_format_chosen: data.date_format_chosen ?? true,
        created_at: data.created_at,
        erased_at: null,
        position: String(recorded.position),
      });
      batch.dirty.add(key);
      break;
    }
    case 'client.updated': {
      const key = clientKey(event.data.client_id);
      const row = batch.rows.get(key);
      if (!row || row.erased_at !== null) break;
      const opened = batch.openedChanges?.get(recorded.id) ?? {};
      for (const field of ['name', 'email', 'company', 'phone', 'notes'] as const) {
        if (field in opened) row[field] = opened[field] ?? null;
      }
      if ('custom_fields' in opened) row.custom_fields = opened.custom_fields ?? '{}';
      const settings = event.data.settings ?? {};
      for (const field of ['locale', 'date_format', 'timezone'] as const) {
        if (settings[field] !== undefined) row[field] = settings[field];
      }
      for (const field of ['locale_chosen', 'date_format_chosen'] as const) {
        if (settings[field] !== undefined) row[field] = settings[field];
      }
      batch.dirty.add(key);
      break;
    }
    case 'client.erased': {
      // The key is gone: drop every personal value this row had opened.
      const key = clientKey(event.data.client_id);
      const row = batch.rows.get(key);
      if (!row) break;
      Object.assign(row, {
        name: null,
        email: null,
        company: null,
        phone: null,
        notes: null,
        custom_fields: '{}',
        erased_at: event.data.erased_at,
      });
      batch.dirty.add(key);
      break;
    }
    default:
      break;
  }
  return batch;
}
