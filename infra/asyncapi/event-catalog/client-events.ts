import { boolean, nonEmpty, nullable, object, ref, string, timestamp, uuid } from '../json-schema.ts';
import { partial } from './fragments.ts';
import type { EventCatalogPart } from './types.ts';

/** A client's personal details, each sealed with the client's key (client.created, client.updated). */
const clientDetails = {
  name: ref('PersonalValue'),
  email: ref('PersonalValue'),
  company: nullable(ref('PersonalValue')),
  phone: nullable(ref('PersonalValue')),
  notes: nullable(ref('PersonalValue')),
  custom_fields: {
    ...ref('PersonalValue'),
    description: 'JSON text of the custom fields object, sealed',
  },
};

/**
 * Whether the client chose its language and date format (docs/decisions/0078); absent in
 * events from before: chosen.
 */
const chosen = {
  locale_chosen: { ...boolean, description: "false: none given, the team's was taken" },
  date_format_chosen: { ...boolean, description: "false: none given, the team's was taken" },
};

/** Clients and their email reservations. */
export const CLIENT_EVENTS: EventCatalogPart = {
  // Clients (stream client-<client_id>; email reservations of old logs client_email-<team_id>-<client_id>)
  'client.created': {
    summary: "A client was created. Personal fields are sealed with the client's key.",
    stream: 'client-<client_id>',
    data: object(
      {
        client_id: uuid,
        team_id: uuid,
        ...clientDetails,
        locale: nonEmpty,
        date_format: nonEmpty,
        timezone: nonEmpty,
        created_at: timestamp,
      },
      chosen,
    ),
  },
  'client.updated': {
    summary: "The team changed a client's details; only the changed fields, sealed as in client.created.",
    stream: 'client-<client_id>',
    data: object(
      {
        client_id: uuid,
        team_id: uuid,
        changes: partial(clientDetails),
        updated_at: timestamp,
      },
      {
        settings: {
          ...partial({ locale: string(), date_format: string(), timezone: string(), ...chosen }),
          description:
            "the language, date format or time zone that changed (not personal, not sealed); a cleared one is the team's again, not chosen",
        },
      },
    ),
  },
  'client.erased': {
    summary: 'The client was erased: its key is deleted, so its sealed values are unreadable for good.',
    stream: 'client-<client_id>',
    data: object({ client_id: uuid, team_id: uuid, erased_at: timestamp }),
  },
  'client_email.reserved': {
    summary:
      'In logs written before the email index table only (no longer written): a client held an email address within its team.',
    stream: 'client_email-<team_id>-<client_id>',
    data: object({ team_id: uuid, client_id: uuid }),
  },
  'client_email.released': {
    summary:
      'In logs written before the email index table only (no longer written): a client gave its email address back.',
    stream: 'client_email-<team_id>-<client_id>',
    data: object({ team_id: uuid, client_id: uuid }),
  },
};
