/**
 * A client's language, date format and time zone in the client's form (add and edit). An
 * empty language or date format is "not chosen" (docs/decisions/0078): the client's form
 * then follows the client's browser language (else the team's), and dates follow the
 * form's language. A new client's time zone may be left to the team's.
 */
import {
  DATE_FORMATS,
  LANGUAGE_NAMES,
  LOCALES,
  type DateFormat,
  type Locale,
} from '../../../../../../shared/i18n/locales.ts';
import { t } from '../../i18n.ts';
import { Select } from '../../ui/index.ts';
import { timeZones } from '../access/settings/team-settings.ts';
import type { ClientDetails } from './records.ts';

export interface SettingsValues {
  /** '' : not chosen. */
  locale: string;
  /** '' : not chosen. */
  date_format: string;
  /** '' : the team's (adding only). */
  timezone: string;
}

/** Pure: the form's values of a client's settings (a new client: nothing chosen). */
export const settingsValues = (client?: Partial<ClientDetails>): SettingsValues => ({
  locale: client?.locale_chosen ? (client.locale ?? '') : '',
  date_format: client?.date_format_chosen ? (client.date_format ?? '') : '',
  timezone: client?.timezone ?? '',
});

/** Pure: the API body of the settings: null for not chosen; no time zone for the team's. */
export const settingsBody = (values: SettingsValues) => ({
  locale: (values.locale || null) as Locale | null,
  date_format: (values.date_format || null) as DateFormat | null,
  ...(values.timezone ? { timezone: values.timezone } : {}),
});

export function ClientSettingsFields({
  values,
  onValues,
  adding,
}: {
  values: SettingsValues;
  onValues: (values: SettingsValues) => void;
  adding: boolean;
}) {
  const zones = values.timezone ? timeZones(values.timezone) : timeZones('UTC');
  return (
    <>
      <Select
        label={t('clients.language')}
        hint={t('clients.languageHint')}
        value={values.locale}
        onValue={(locale) => onValues({ ...values, locale })}
        options={[
          { value: '', label: t('clients.languageUnset') },
          ...LOCALES.map((locale) => ({ value: locale, label: LANGUAGE_NAMES[locale], lang: locale })),
        ]}
      />
      <Select
        label={t('clients.dateFormat')}
        value={values.date_format}
        onValue={(date_format) => onValues({ ...values, date_format })}
        options={[
          { value: '', label: t('clients.dateFormatUnset') },
          ...DATE_FORMATS.map((format) => ({ value: format, label: format })),
        ]}
      />
      <Select
        label={t('clients.timezone')}
        value={values.timezone}
        onValue={(timezone) => onValues({ ...values, timezone })}
        options={[
          ...(adding ? [{ value: '', label: t('clients.timezoneTeam') }] : []),
          ...zones.map((zone) => ({ value: zone, label: zone })),
        ]}
      />
    </>
  );
}
