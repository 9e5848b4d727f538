import type { RecordedEvent } from '../../shared/event-store/event-store.ts';
import type {
  TeamBranding,
  TeamEvent,
  TeamSettings,
  TeamStripeAccount,
} from '../../services/access/team-events.ts';

/**
 * The pure half of the teams and team_members read model (./projection.ts holds its
 * SQL): each event becomes the row change it makes, in log order.
 */

export const TEAM_EVENT_TYPES = [
  'team.created',
  'team.updated',
  'team.member_added',
  'team.member_role_changed',
  'team.member_locale_chosen',
  'team.member_removed',
] as const;

const SETTING_COLUMNS = new Set<string>([
  'name',
  'plan',
  'timezone',
  'locale',
  'date_format',
  'email_sender_name',
  'sending_paused',
  'payments_connected',
  'unpaid',
  'new_recipient_cap',
  'accent_color',
  'stripe_account_id',
  'stripe_account_state',
]);

/** Columns of `teams` for each setting (monthly_onboarding_limit and logo take two columns each). */
export function settingColumns(
  settings: Partial<TeamSettings & TeamStripeAccount & TeamBranding>,
): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(settings)) {
    if (value === undefined) continue;
    if (name === 'monthly_onboarding_limit') {
      columns.monthly_onboarding_limit = typeof value === 'number' ? value : null;
      columns.monthly_onboarding_unlimited = value === 'unlimited';
    } else if (name === 'logo') {
      const logo = value as TeamBranding['logo'];
      columns.logo_sha256 = logo?.sha256 ?? null;
      columns.logo_content_type = logo?.content_type ?? null;
    } else if (name === 'reminder_schedule') {
      // jsonb: node-postgres would send a JavaScript array as a PostgreSQL array.
      columns.reminder_schedule = JSON.stringify(value);
    } else if (SETTING_COLUMNS.has(name)) {
      columns[name] = value;
    }
  }
  return columns;
}

export type TeamChange =
  /** A new `teams` row: only the columns the event sets (the others keep their defaults). */
  | { kind: 'team_created'; columns: Record<string, unknown> }
  | { kind: 'team_updated'; teamId: string; columns: Record<string, unknown> }
  | {
      kind: 'member_added';
      row: { id: string; team_id: string; name: string; email: string; role: string; created_at: string };
    }
  | { kind: 'member_role_changed'; id: string; role: string }
  | { kind: 'member_locale_chosen'; id: string; locale: string | null }
  | { kind: 'member_removed'; id: string; removed_at: string };

export function foldTeam(changes: TeamChange[], recorded: RecordedEvent): TeamChange[] {
  const event = { type: recorded.type, data: recorded.data } as TeamEvent;
  switch (event.type) {
    case 'team.created': {
      const { team_id, created_at, ...settings } = event.data;
      changes.push({
        kind: 'team_created',
        columns: { id: team_id, ...settingColumns(settings), created_at, updated_at: created_at },
      });
      break;
    }
    case 'team.updated':
      changes.push({
        kind: 'team_updated',
        teamId: event.data.team_id,
        columns: { ...settingColumns(event.data.changes), updated_at: event.data.updated_at },
      });
      break;
    case 'team.member_added': {
      const { data } = event;
      changes.push({
        kind: 'member_added',
        row: {
          id: data.member_id,
          team_id: data.team_id,
          name: data.name,
          email: data.email,
          role: data.role,
          created_at: data.added_at,
        },
      });
      break;
    }
    case 'team.member_role_changed':
      changes.push({ kind: 'member_role_changed', id: event.data.member_id, role: event.data.role });
      break;
    case 'team.member_locale_chosen':
      changes.push({ kind: 'member_locale_chosen', id: event.data.member_id, locale: event.data.locale });
      break;
    case 'team.member_removed':
      changes.push({ kind: 'member_removed', id: event.data.member_id, removed_at: event.data.removed_at });
      break;
    default:
      break;
  }
  return changes;
}
