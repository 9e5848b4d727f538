import type { SealedValue } from '../../shared/privacy/personal-data-vault.ts';
import type { DomainEvent } from '../../shared/commands/decider.ts';

/** Stream of one client: `client-<client_id>`. */
export const clientStream = (clientId: string) => `client-${clientId}`;

/** The client's fields as given on create, after the edge's checks. */
export interface ClientInput {
  client_id: string;
  team_id: string;
  name: string;
  /** Trimmed and lowercased. */
  email: string;
  company: string | null;
  phone: string | null;
  /** Trimmed. */
  notes: string | null;
  custom_fields: Record<string, unknown>;
  /** Not validated: an unsupported locale makes the client form fall back to en-US. */
  locale: string;
  date_format: string;
  timezone: string;
  /**
   * False when the request named no locale (or date format) and the team's was taken
   * (docs/decisions/0078): the form then follows the browser's language and dates follow
   * the form's language. Absent in events from before: chosen.
   */
  locale_chosen?: boolean;
  date_format_chosen?: boolean;
}

/**
 * A change of a client's language, date format or time zone (the workspace's client page);
 * a locale or date format the team clears is the team's again, not chosen.
 */
export interface ClientSettingsChange {
  locale?: string;
  date_format?: string;
  timezone?: string;
  locale_chosen?: boolean;
  date_format_chosen?: boolean;
}

/** The personal fields, as they are kept in events (custom_fields as JSON text). */
export const PERSONAL_FIELDS = ['name', 'email', 'company', 'phone', 'notes', 'custom_fields'] as const;
export type PersonalField = (typeof PERSONAL_FIELDS)[number];

/**
 * Personal fields are sealed with the client's own key (crypto-shredding,
 * shared/privacy/personal-data-vault.ts): erasing the client deletes the key, and these
 * values become unreadable wherever the log is kept. A plain string is accepted too
 * (events written before sealing, tests).
 */
export type Sealed = SealedValue | string;

/** A client's personal fields as events carry them, each sealed (client.created; client.updated's changes). */
export interface SealedDetails {
  name: Sealed;
  email: Sealed;
  company: Sealed | null;
  phone: Sealed | null;
  notes: Sealed | null;
  /** JSON text of the custom_fields object. */
  custom_fields: Sealed;
}

export type ClientCreated = DomainEvent<
  'client.created',
  Omit<ClientInput, PersonalField> &
    SealedDetails & {
      /**
       * Events written before the email index table (docs/decisions/0016) carry the email's
       * unkeyed sha256 here; it is never written now, never read, and removed from every
       * event that leaves the service (services/events/outward-event.ts).
       */
      email_hash?: string;
      /** ISO 8601, from the service clock. */
      created_at: string;
    }
>;

/**
 * The client was erased (POST /admin/v1/teams/:team_id/clients/:client_id/erase): its key
 * is deleted, so every sealed personal value of it is unreadable for good; read models
 * drop what they had opened. Carries no personal data.
 */
export type ClientErased = DomainEvent<
  'client.erased',
  { client_id: string; team_id: string; erased_at: string }
>;

/**
 * The team changed a client's details (the workspace's client page). `changes` holds only
 * the fields that changed; personal ones sealed with the client's key exactly as in
 * client.created (custom_fields as JSON text). The email index (client-email-index.ts)
 * holds the new address for this client and the old one is released.
 * An internal event: in the events feed as client_updated with the names of the changed
 * fields only, never a hook.
 */
export type ClientUpdated = DomainEvent<
  'client.updated',
  {
    client_id: string;
    team_id: string;
    changes: Partial<SealedDetails>;
    /** The language, date format or time zone that changed (not personal data, not sealed). */
    settings?: ClientSettingsChange;
    /** Only in events from before docs/decisions/0016 (an unkeyed sha256): never written now. */
    email_hash?: string | null;
    updated_at: string;
  }
>;

export type ClientEvent = ClientCreated | ClientUpdated | ClientErased;
