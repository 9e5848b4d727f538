import type { RecordedEvent } from '../shared/event-store/event-store.ts';
import { copyRows } from '../shared/db/copy-rows.ts';
import { liveTable, readModelProjection, type Projection } from '../shared/projections/projection.ts';

/** One entry of a team's feed: what happened to which team, when, and about whom or what. */
export interface FeedEntry {
  id: string;
  teamId: string;
  type: string;
  /** The onboarding (audit_events) or the acting member (team_activity); null: none. */
  subject: string | null;
  data: Record<string, unknown>;
  occurredAt: string;
  position: bigint;
}

/**
 * A team feed read model (audit_events, team_activity): each handled event becomes at most
 * one row, inserted once and never changed. The feed only grows, so a batch loads nothing
 * and writes its rows in one statement. `entry` is the pure fold of one event (undefined:
 * not in the feed); `subjectColumn` is the uuid column its subject is written to.
 */
export function teamFeedProjection(feed: {
  table: string;
  readonly canHandle: readonly string[];
  subjectColumn: string;
  entry(event: RecordedEvent): FeedEntry | undefined;
}): Projection {
  const subject = feed.subjectColumn;
  return readModelProjection<FeedEntry[]>({
    name: feed.table,
    tables: [feed.table],
    // Read at each batch: a feed may name its events through a getter.
    get canHandle() {
      return feed.canHandle;
    },
    load: async () => [],
    fold(entries, event) {
      const entry = feed.entry(event);
      if (entry) entries.push(entry);
      return entries;
    },
    async persist(client, entries, table) {
      if (entries.length === 0) return;
      // A rebuild applies each event once to a shadow table that has no rows of it yet.
      if (table !== liveTable) {
        await copyRows(
          client,
          table(feed.table),
          ['id', 'team_id', 'type', subject, 'data', 'occurred_at', 'position'],
          entries.map((entry) => ({
            id: entry.id,
            team_id: entry.teamId,
            type: entry.type,
            [subject]: entry.subject,
            data: entry.data,
            occurred_at: entry.occurredAt,
            position: entry.position,
          })),
        );
        return;
      }
      // The live runner may meet an event again after a crash between its write and its checkpoint.
      await client.query(
        `insert into ${table(feed.table)} (id, team_id, type, ${subject}, data, occurred_at, position)
         select id, team_id, type, ${subject}, data, occurred_at, position
         from jsonb_to_recordset($1::jsonb) as r(
           id uuid, team_id uuid, type text, ${subject} uuid, data jsonb, occurred_at timestamptz, position bigint)
         on conflict (id) do nothing`,
        [
          JSON.stringify(
            entries.map((entry) => ({
              id: entry.id,
              team_id: entry.teamId,
              type: entry.type,
              [subject]: entry.subject,
              data: entry.data,
              occurred_at: entry.occurredAt,
              position: String(entry.position),
            })),
          ),
        ],
      );
    },
  });
}
