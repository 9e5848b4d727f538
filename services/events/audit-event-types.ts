import type { RecordedEvent } from '../../shared/event-store/event-store.ts';
import type { ApiKeyCreated, ApiKeyRevoked } from '../access/index.ts';
import type { ClientCreated, ClientErased, ClientUpdated } from '../clients/index.ts';
import type { HookSubscriptionCreated, HookSubscriptionDeleted } from '../hooks/index.ts';
// From its contract, not the feature's face: the face brings the whole feature (PDF, Stripe), which a
// rebuild or a read of the feed has no use for.
import { ONBOARDING_AUDIT_EVENT_TYPES } from '../onboardings/contract/onboarding-audit-events.ts';
import { PUBLIC_EVENT_TYPES, type PublicEventType } from './contract/public-event-types.ts';
import type { MemberAdded, MemberRemoved, TeamCreated, TeamUpdated } from '../access/index.ts';
import type { TemplateCreated, TemplateDeleted, TemplateUpdated } from '../templates/index.ts';

export { PUBLIC_EVENT_TYPES, type PublicEventType };

/**
 * Which domain events are audit events, and how each appears in the events feed
 * (GET /api/v1/events, projections/audit-events-projection.ts).
 *
 * One entry per internal domain event type:
 * - `name`: the feed's `type`. One of the eight public names when the event is one of
 *   them; otherwise an internal snake_case name (`client.created` -> `client_created`).
 * - `teamId`: the team whose feed shows it (events without a team are not audited).
 * - `onboardingId`: the onboarding it concerns, or null.
 * - `details`: the feed's `data` object. Audit details only: ids and facts, never
 *   secrets (tokens, key hashes, PINs) and no personal data that erasure would have to
 *   chase (names, email addresses): ids lead to those.
 * - `occurredAt`: the domain time (service clock) carried in the event; when absent the
 *   time the event was recorded is used.
 *
 * Domain events not listed here (for example the email-index reservations) never reach
 * the feed. Adding an event type to the feed is adding its line here.
 */
export interface AuditEventMapping<Data = any> {
  name: string;
  teamId: (data: Data) => string | null | undefined;
  onboardingId?: (data: Data) => string | null | undefined;
  details: (data: Data) => Record<string, unknown>;
  occurredAt?: (data: Data) => string | null | undefined;
}

const entry = <Data>(mapping: AuditEventMapping<Data>) => mapping;

/** The origin of a URL: hook target paths and queries often hold secrets of the receiver. */
const originOf = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

export const AUDIT_EVENT_TYPES: Record<string, AuditEventMapping> = {
  // Teams, members, API keys, templates. Members' names and emails stay out.
  'team.created': entry<TeamCreated['data']>({
    name: 'team_created',
    teamId: (data) => data.team_id,
    details: (data) => ({ team_id: data.team_id, name: data.name, plan: data.plan }),
    occurredAt: (data) => data.created_at,
  }),
  'team.updated': entry<TeamUpdated['data']>({
    name: 'team_updated',
    teamId: (data) => data.team_id,
    details: (data) => ({ changes: data.changes }),
    occurredAt: (data) => data.updated_at,
  }),
  'team.member_added': entry<MemberAdded['data']>({
    name: 'member_added',
    teamId: (data) => data.team_id,
    details: (data) => ({ member_id: data.member_id, role: data.role }),
    occurredAt: (data) => data.added_at,
  }),
  'team.member_removed': entry<MemberRemoved['data']>({
    name: 'member_removed',
    teamId: (data) => data.team_id,
    details: (data) => ({ member_id: data.member_id }),
    occurredAt: (data) => data.removed_at,
  }),
  'api_key.created': entry<ApiKeyCreated['data']>({
    name: 'api_key_created',
    teamId: (data) => data.team_id,
    // Never key_hash.
    details: (data) => ({
      api_key_id: data.api_key_id,
      name: data.name,
      scopes: data.scopes,
      expires_at: data.expires_at,
    }),
    occurredAt: (data) => data.created_at,
  }),
  'api_key.revoked': entry<ApiKeyRevoked['data']>({
    name: 'api_key_revoked',
    teamId: (data) => data.team_id,
    details: (data) => ({ api_key_id: data.api_key_id }),
    occurredAt: (data) => data.revoked_at,
  }),
  // Gallery templates have no team: they are in no team's feed.
  'template.created': entry<TemplateCreated['data']>({
    name: 'template_created',
    teamId: (data) => data.team_id,
    details: (data) => ({ template_id: data.template_id, name: data.name }),
    occurredAt: (data) => data.created_at,
  }),
  'template.updated': entry<TemplateUpdated['data']>({
    name: 'template_updated',
    teamId: (data) => data.team_id,
    details: (data) => ({ template_id: data.template_id, name: data.name, version: data.version }),
    occurredAt: (data) => data.updated_at,
  }),
  'template.deleted': entry<TemplateDeleted['data']>({
    name: 'template_deleted',
    teamId: (data) => data.team_id,
    details: (data) => ({ template_id: data.template_id }),
    occurredAt: (data) => data.deleted_at,
  }),

  // Clients
  'client.created': entry<ClientCreated['data']>({
    name: 'client_created',
    teamId: (data) => data.team_id,
    details: (data) => ({ client_id: data.client_id }),
    occurredAt: (data) => data.created_at,
  }),
  // The names of the changed fields only: their values are personal data.
  'client.updated': entry<ClientUpdated['data']>({
    name: 'client_updated',
    teamId: (data) => data.team_id,
    details: (data) => ({
      client_id: data.client_id,
      changed: [...Object.keys(data.changes), ...Object.keys(data.settings ?? {})].sort(),
    }),
    occurredAt: (data) => data.updated_at,
  }),
  'client.erased': entry<ClientErased['data']>({
    name: 'client_erased',
    teamId: (data) => data.team_id,
    details: (data) => ({ client_id: data.client_id }),
    occurredAt: (data) => data.erased_at,
  }),

  // Hook subscriptions
  'hook_subscription.created': entry<HookSubscriptionCreated['data']>({
    name: 'hook_subscription_created',
    teamId: (data) => data.team_id,
    details: (data) => ({
      subscription_id: data.subscription_id,
      event: data.event,
      target_origin: originOf(data.target_url),
    }),
    occurredAt: (data) => data.created_at,
  }),
  'hook_subscription.deleted': entry<HookSubscriptionDeleted['data']>({
    name: 'hook_subscription_deleted',
    teamId: (data) => data.team_id,
    details: (data) => ({ subscription_id: data.subscription_id }),
    occurredAt: (data) => data.deleted_at,
  }),

  // Onboardings: the public events under their public names, the others under
  // their internal names. Never token hashes, PIN hashes, answer values, signer names or
  // emails, file names. answer_saved (autosaves, many per minute) is not an audit event.
  ...ONBOARDING_AUDIT_EVENT_TYPES,
};

/** A row of the events feed. */
export interface AuditRecord {
  id: string;
  teamId: string;
  type: string;
  onboardingId: string | null;
  data: Record<string, unknown>;
  occurredAt: string;
}

/** The feed row of a recorded event, or undefined when it is not an audit event of a team. */
export function toAuditRecord(event: RecordedEvent): AuditRecord | undefined {
  const mapping = AUDIT_EVENT_TYPES[event.type];
  if (!mapping) return undefined;
  const teamId = mapping.teamId(event.data);
  if (!teamId) return undefined;
  return {
    id: event.id,
    teamId,
    type: mapping.name,
    onboardingId: mapping.onboardingId?.(event.data) ?? null,
    data: mapping.details(event.data),
    occurredAt: mapping.occurredAt?.(event.data) ?? event.recordedAt.toISOString(),
  };
}
