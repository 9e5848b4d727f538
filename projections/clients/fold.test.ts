import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../shared/event-store/event-store.ts';
import { foldClient, type ClientsBatch } from './fold.ts';

const CLIENT = '6F1C2B8E-0000-4000-8000-000000000001';

const recorded = (id: string, type: string, data: unknown, position: bigint): RecordedEvent => ({
  id,
  streamId: `client-${CLIENT}`,
  revision: 0n,
  position,
  type,
  data,
  metadata: {},
  recordedAt: new Date('2026-01-01T00:00:00Z'),
});

const created = recorded(
  'e1',
  'client.created',
  {
    client_id: CLIENT,
    team_id: 'team-1',
    locale: 'en',
    date_format: 'YYYY-MM-DD',
    timezone: 'UTC',
    created_at: '2026-01-01T00:00:00Z',
  },
  10n,
);
const erased = recorded(
  'e2',
  'client.erased',
  { client_id: CLIENT, team_id: 'team-1', erased_at: '2026-02-01T00:00:00Z' },
  20n,
);

const emptyBatch = (): ClientsBatch => ({
  rows: new Map(),
  dirty: new Set(),
  opened: new Map([
    [
      'e1',
      { name: 'Ada', email: 'ada@example.com', company: null, phone: null, notes: null, custom_fields: null },
    ],
  ]),
});

describe('clients fold', () => {
  it('creates a row from client.created with its opened personal fields', () => {
    const batch = foldClient(emptyBatch(), created);
    const row = batch.rows.get(CLIENT.toLowerCase());
    expect(row).toMatchObject({ id: CLIENT, name: 'Ada', email: 'ada@example.com', custom_fields: '{}' });
    expect(row?.position).toBe('10');
    expect([...batch.dirty]).toEqual([CLIENT.toLowerCase()]);
  });

  it('keeps a row that exists (a replayed client.created changes nothing)', () => {
    const batch = foldClient(emptyBatch(), created);
    batch.dirty.clear();
    const again = foldClient(batch, created);
    expect(again.dirty.size).toBe(0);
  });

  it('drops every personal value on client.erased', () => {
    const batch = [created, erased].reduce(foldClient, emptyBatch());
    expect(batch.rows.get(CLIENT.toLowerCase())).toMatchObject({
      name: null,
      email: null,
      custom_fields: '{}',
      erased_at: '2026-02-01T00:00:00Z',
    });
  });

  it('ignores client.erased of a client it has no row for', () => {
    const batch = foldClient(emptyBatch(), erased);
    expect(batch.rows.size).toBe(0);
    expect(batch.dirty.size).toBe(0);
  });

  it('applies client.updated: only the changed fields, opened; an erased row stays empty', () => {
    const updated = recorded(
      'e3',
      'client.updated',
      {
        client_id: CLIENT,
        team_id: 'team-1',
        changes: {},
        email_hash: null,
        updated_at: '2026-01-15T00:00:00Z',
      },
      15n,
    );
    const batch = emptyBatch();
    batch.openedChanges = new Map([['e3', { name: 'Ada King', company: null }]]);
    foldClient(batch, created);
    foldClient(batch, updated);
    expect(batch.rows.get(CLIENT.toLowerCase())).toMatchObject({
      name: 'Ada King',
      email: 'ada@example.com',
      company: null,
      position: '10',
    });
    foldClient(batch, erased);
    foldClient(batch, updated);
    expect(batch.rows.get(CLIENT.toLowerCase())).toMatchObject({ name: null, email: null });
  });

  it('keeps whether the client chose its language and date format, and applies a change of them', () => {
    const batch = foldClient(emptyBatch(), created);
    expect(batch.rows.get(CLIENT.toLowerCase())).toMatchObject({
      locale_chosen: true,
      date_format_chosen: true,
    });
    const unchosen = recorded(
      'e4',
      'client.created',
      {
        ...(created.data as object),
        client_id: CLIENT.replace('0001', '0002'),
        locale_chosen: false,
        date_format_chosen: false,
      },
      11n,
    );
    const changed = recorded(
      'e5',
      'client.updated',
      {
        client_id: CLIENT.replace('0001', '0002'),
        team_id: 'team-1',
        changes: {},
        settings: { locale: 'de-DE', locale_chosen: true, timezone: 'Europe/Berlin' },
        updated_at: '2026-01-15T00:00:00Z',
      },
      16n,
    );
    foldClient(batch, unchosen);
    const key = CLIENT.replace('0001', '0002').toLowerCase();
    expect(batch.rows.get(key)).toMatchObject({ locale_chosen: false, date_format_chosen: false });
    foldClient(batch, changed);
    expect(batch.rows.get(key)).toMatchObject({
      locale: 'de-DE',
      locale_chosen: true,
      date_format: 'YYYY-MM-DD',
      date_format_chosen: false,
      timezone: 'Europe/Berlin',
    });
  });
});
