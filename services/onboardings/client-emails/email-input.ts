import type { Onboarding } from '../decider/index.ts';

/**
 * What every email to a client about its onboarding is written from: the team as the
 * client knows it (name, logo, accent colour), the client's name and language, the form,
 * its due date, and whether the form asks for a PIN (never the PIN itself: the team gives
 * it to the client by another way, and the PIN page says so).
 */
export interface ClientEmailInput {
  publicUrl: string;
  /** The team's email sender name, else its name. */
  fromName: string;
  clientName: string | null;
  templateName: string;
  /** The due instant (ISO 8601 with offset). */
  dueDate: string | null;
  /** The due day (YYYY-MM-DD) when the due date was given as a day. */
  dueOn: string | null;
  pinRequired: boolean;
  /** The language the email is written in (the client's, else the team's); en-US when absent or unknown. */
  locale?: string | null;
  /** The timezone a due instant is read in (the client's, else the team's). */
  timeZone?: string | null;
  /** The team's branding; absent: the team's name on the default accent. */
  brand?: EmailBrand | null;
}

export interface EmailBrand {
  /** Absolute URL of the team's logo image, null when the team has none. */
  logoUrl: string | null;
  /** '#rrggbb' with at least 4.5:1 contrast against white (services/access/team-branding.ts). */
  accentColor: string | null;
}

/** The form's name in `locale` when its template translates it (`translations[locale].name`), else its name. */
export function formName(snapshot: Onboarding['snapshot'], locale: string | null | undefined): string {
  const translations = snapshot.translations as Record<string, { name?: unknown } | null> | null;
  const translated =
    locale && translations && typeof translations === 'object' ? translations[locale]?.name : null;
  return typeof translated === 'string' && translated.trim() ? translated : snapshot.name;
}

/** The onboarding's part of an email's input, as the onboarding is now (the form named in `locale`). */
export const onboardingEmailFacts = (
  onboarding: Onboarding,
  locale?: string | null,
): Pick<ClientEmailInput, 'templateName' | 'dueDate' | 'dueOn' | 'pinRequired'> => ({
  templateName: formName(onboarding.snapshot, locale),
  dueDate: onboarding.due?.due_date ?? null,
  dueOn: onboarding.due?.due_on ?? null,
  pinRequired: onboarding.pin !== null,
});

/** The form page of a client link (the page reads the portal API with the token). */
export const portalLink = (publicUrl: string, token: string) => `${publicUrl.replace(/\/$/, '')}/f/${token}`;

/** The form page of a client link opened at one answer (`?field=<field_id>`). */
export const fieldLink = (publicUrl: string, token: string, fieldId: string) =>
  `${portalLink(publicUrl, token)}?field=${encodeURIComponent(fieldId)}`;
