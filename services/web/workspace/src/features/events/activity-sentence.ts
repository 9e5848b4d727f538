import type { Translate } from '../../i18n.ts';
import { humanizeType } from './audit.ts';

/** The entry types said as a sentence naming actor and object (events.json activity.entry.*). */
const SENTENCES = new Set([
  'team_settings_changed',
  'member_added',
  'member_invited',
  'invitation_resent',
  'invitation_revoked',
  'member_role_changed',
  'member_removed',
  'api_key_created',
  'api_key_rotated',
  'api_key_revoked',
  'signed_in',
  'recovery_code_used',
  'sign_in_locked',
]);

/** The team settings an entry may name, in words (events.json activity.setting.*). */
const SETTINGS = new Set([
  'name',
  'timezone',
  'locale',
  'date_format',
  'email_sender_name',
  'accent_color',
  'logo',
  'reminder_schedule',
  'plan',
]);

export interface ActivityEntry {
  type: string;
  actor_member_id: string | null;
  actor_name: string | null;
  object_name: string | null;
  data: Record<string, unknown>;
}

/**
 * Pure: an Activity entry as one sentence naming who did it and to what ("Ada Lovelace
 * revoked API key Zapier cos_ab12cd34…", "… changed the team's accent colour"). An entry of a
 * type without a sentence is its type in words.
 */
export function activitySentence(entry: ActivityEntry, t: Translate): string {
  if (!SENTENCES.has(entry.type)) return humanizeType(entry.type);
  const actor =
    entry.actor_name ?? (entry.actor_member_id ? t('activity.formerMember') : t('activity.system'));
  const object = entry.object_name ?? t('activity.unknownObject');
  const settings = Array.isArray(entry.data['settings'])
    ? (entry.data['settings'] as string[])
        .map((name) =>
          SETTINGS.has(name) ? t(`activity.setting.${name}`) : humanizeType(name).toLowerCase(),
        )
        .join(', ')
    : '';
  return t(`activity.entry.${entry.type}`, { actor, object, settings });
}
