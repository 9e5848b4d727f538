import { openWithKeyRows } from '../../shared/privacy/personal-data-vault.ts';
import { storedValue } from '../../shared/privacy/sealed-columns.ts';
import type { PoolClient } from '../../shared/db/pool.ts';
import { usageMonth } from './deadlines.ts';
import type { SendFacts } from './decider/index.ts';
import type { TemplateSnapshot } from './onboarding-events.ts';
import { NEW_RECIPIENT_WINDOW_MS } from './send-policy.ts';
import { hasPayments } from '../access/contract/plans.ts';
import {
  currentMember,
  TEAM_FACTS_COLUMNS,
  toTeamFacts,
  type TeamFacts,
  type TeamFactsRow,
} from '../../projections/teams/queries.ts';

/**
 * What onboarding commands read besides their own stream: the team's settings, its
 * members, templates and clients (their read models) and the send counters
 * (operational tables of this feature), all through the command's transaction.
 */

export interface ClientFacts {
  status: 'active' | 'erased' | 'missing';
  name: string | null;
  email: string | null;
}

/** A client of the team (personal fields opened): missing (absent or another team's), erased, or active with its name and email. */
export async function clientFacts(tx: PoolClient, teamId: string, clientId: string): Promise<ClientFacts> {
  // The client's key comes with its row (one round trip) to open its sealed fields here.
  const { rows } = await tx.query<{
    name: string | null;
    email: string | null;
    erased: boolean;
    subject_id: string;
    key: Buffer | null;
    kek_id: string | null;
  }>({
    name: 'onboarding_client_facts',
    text: `select c.name, c.email, client_is_erased(c.erased_at, c.email) as erased,
                  c.id::text as subject_id, k.key, k.kek_id
           from clients c left join personal_data_keys k on k.subject_id = c.id
           where c.id = $1 and c.team_id = $2`,
    values: [clientId, teamId],
  });
  const row = rows[0];
  if (!row) return { status: 'missing', name: null, email: null };
  if (row.erased) return { status: 'erased', name: null, email: null };
  // Sealed at rest (sealed-columns.ts) with the client's key; a key already gone reads as erased.
  const keyRows = row.key ? [{ subject_id: row.subject_id, key: row.key, kek_id: row.kek_id }] : [];
  const [name, email] = openWithKeyRows([storedValue(row.name), storedValue(row.email)], keyRows);
  if (!email) return { status: 'erased', name: null, email: null };
  return { status: 'active', name: name ?? null, email };
}

/**
 * What a create reads, in one round trip: the team, the template (as templateFacts) and
 * whether the client can get an onboarding (as clientFacts' status: an erased client, or
 * one whose key is gone, is erased). undefined when the team has no row.
 */
export async function createFacts(
  tx: PoolClient,
  teamId: string,
  templateId: string,
  clientId: string,
): Promise<
  | {
      team: TeamFacts;
      template: Awaited<ReturnType<typeof templateFacts>>;
      client: ClientFacts['status'];
    }
  | undefined
> {
  const { rows } = await tx.query<
    TeamFactsRow & {
      template: { gallery: boolean; snapshot: TemplateSnapshot } | null;
      client: ClientFacts['status'];
    }
  >({
    name: 'onboarding_create_facts',
    text: `select ${TEAM_FACTS_COLUMNS},
         (select json_build_object('gallery', gallery, 'snapshot', snapshot) from templates
          where id = $2 and deleted_at is null and (team_id = $1 or (gallery and team_id is null))) as template,
         coalesce((select case
                     when client_is_erased(c.erased_at, c.email) then 'erased'
                     when exists (select 1 from personal_data_keys k where k.subject_id = c.id and k.key is not null)
                       then 'active'
                     else 'erased' end
                   from clients c where c.id = $3 and c.team_id = $1), 'missing') as client
       from teams where id = $1`,
    values: [teamId, templateId, clientId],
  });
  const row = rows[0];
  const team = toTeamFacts(row);
  if (!row || !team) return undefined;
  const template = row.template
    ? {
        source: row.template.gallery ? ('gallery' as const) : ('team' as const),
        snapshot: row.template.snapshot,
      }
    : undefined;
  return { team, template, client: row.client };
}

/** The team's own template or a gallery template, not deleted; undefined otherwise. */
export async function templateFacts(
  tx: PoolClient,
  teamId: string,
  templateId: string,
): Promise<{ source: 'team' | 'gallery'; snapshot: TemplateSnapshot } | undefined> {
  const { rows } = await tx.query<{ gallery: boolean; snapshot: TemplateSnapshot }>(
    `select gallery, snapshot from templates
     where id = $1 and deleted_at is null and (team_id = $2 or (gallery and team_id is null))`,
    [templateId, teamId],
  );
  const row = rows[0];
  return row ? { source: row.gallery ? 'gallery' : 'team', snapshot: row.snapshot } : undefined;
}

/** A current (not removed) member of the team. */
export async function isCurrentMember(tx: PoolClient, teamId: string, memberId: string): Promise<boolean> {
  return (await currentMember(tx, teamId, memberId)) !== undefined;
}

/**
 * Serializes the sends of one team until the transaction ends, so the monthly count and
 * the new-recipient count read below stay true until this send is recorded.
 */
export async function lockTeamSends(tx: PoolClient, teamId: string): Promise<void> {
  await tx.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`onboarding-send:${teamId}`]);
}

/** The facts of the send checks (call after lockTeamSends). */
export async function sendFacts(
  tx: PoolClient,
  team: TeamFacts,
  client: ClientFacts,
  clientId: string,
  now: Date,
): Promise<SendFacts> {
  const month = usageMonth(now, team.timezone);
  // One round trip for the three counters.
  const { rows } = await tx.query<{ used: number; known: boolean; recent: number }>({
    name: 'onboarding_send_facts',
    text: `select
         (select count(*)::int from onboarding_send_usage where team_id = $1 and usage_month = $2) as used,
         exists (select 1 from onboarding_recipients where team_id = $1 and client_id = $3) as known,
         (select count(*)::int from onboarding_recipients where team_id = $1 and first_invited_at > $4) as recent`,
    values: [team.id, month, clientId, new Date(now.getTime() - NEW_RECIPIENT_WINDOW_MS)],
  });
  const counters = rows[0]!;
  return {
    client: client.status,
    plan_can_collect_payments: hasPayments(team.plan),
    payments_connected: team.payments_connected,
    // A team whose self-serve owner has not verified their email may not send: to the spec's
    // send checks it is a paused team (check 5, 403 sending_paused, the same text), so the
    // public API's contract does not change; the workspace explains it (email_unverified).
    sending_paused: team.sending_paused || !team.email_verified,
    unpaid: team.unpaid,
    new_recipient: !counters.known,
    new_recipients_last_24h: counters.recent,
    new_recipient_cap: team.new_recipient_cap,
    monthly_limit: team.monthly_limit,
    monthly_used: counters.used,
    usage_month: month,
  };
}
