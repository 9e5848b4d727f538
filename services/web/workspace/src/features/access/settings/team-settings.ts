import type { DateFormat } from '../../../../../../../shared/i18n/locales.ts';
import type { TeamChanges, TeamSettings } from '../api.ts';

/** The form's fields: logo is the shown image (the served URL, a new data URL, or none). */
export interface SettingsForm {
  name: string;
  sender: string;
  timezone: string;
  locale: string;
  date_format: DateFormat;
  accent: string;
  logo: string | null;
}

/** Pure: the form's fields of the team's settings. */
export function formOf(team: TeamSettings): SettingsForm {
  return {
    name: team.name,
    sender: team.email_sender_name ?? '',
    timezone: team.timezone,
    locale: team.locale,
    date_format: team.date_format,
    accent: team.accent_color ?? '',
    logo: team.logo_url,
  };
}

/** Pure: # and six hexadecimal digits. */
export const isHexColor = (value: string): boolean => /^#[0-9a-f]{6}$/i.test(value.trim());

/** Pure: the PATCH body of what the form changed (empty when nothing did). */
export function changesOf(team: TeamSettings, form: SettingsForm): TeamChanges {
  const changes: TeamChanges = {};
  if (form.name.trim() !== team.name) changes.name = form.name.trim();
  if (form.sender.trim() !== (team.email_sender_name ?? ''))
    changes.email_sender_name = form.sender.trim() || null;
  if (form.timezone !== team.timezone) changes.timezone = form.timezone;
  if (form.locale !== team.locale) changes.locale = form.locale as TeamChanges['locale'];
  if (form.date_format !== team.date_format) changes.date_format = form.date_format;
  const accent = form.accent.trim().toLowerCase();
  if (accent !== (team.accent_color ?? '').toLowerCase()) changes.accent_color = accent || null;
  if (form.logo !== team.logo_url) changes.logo = form.logo;
  return changes;
}

/** The time zones the browser knows, with the team's own first in line if the browser lacks it. */
export function timeZones(current: string): string[] {
  const known = Intl.supportedValuesOf('timeZone');
  return known.includes(current) ? known : [current, ...known];
}

/** A language named in itself (Deutsch (Deutschland), 日本語 (日本)). */
export function localeName(locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'language' }).of(locale) ?? locale;
  } catch {
    return locale;
  }
}
