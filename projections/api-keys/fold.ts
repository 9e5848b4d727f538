import type { RecordedEvent } from '../../shared/event-store/event-store.ts';
import type { ApiKeyEvent } from '../../services/access/api-key-events.ts';

/**
 * The pure half of the api_keys read model (./projection.ts holds its SQL): each
 * event becomes the row change it makes, in log order.
 */

export const API_KEY_EVENT_TYPES = ['api_key.created', 'api_key.revoked'] as const;

export type ApiKeyChange =
  | {
      kind: 'created';
      row: {
        id: string;
        team_id: string;
        name: string;
        scopes: string[];
        key_hash: string;
        expires_at: string | null;
        created_at: string;
        key_prefix: string | null;
        created_by_member_id: string | null;
      };
    }
  | { kind: 'revoked'; id: string; revoked_at: string };

/** The member the event's metadata names as actor (workspace requests); null otherwise. */
const actorOf = (recorded: RecordedEvent): string | null => {
  const actor = recorded.metadata?.['actor_member_id'];
  return typeof actor === 'string' ? actor : null;
};

export function foldApiKey(changes: ApiKeyChange[], recorded: RecordedEvent): ApiKeyChange[] {
  const event = { type: recorded.type, data: recorded.data } as ApiKeyEvent;
  switch (event.type) {
    case 'api_key.created': {
      const { data } = event;
      changes.push({
        kind: 'created',
        row: {
          id: data.api_key_id,
          team_id: data.team_id,
          name: data.name,
          scopes: data.scopes,
          key_hash: data.key_hash,
          expires_at: data.expires_at,
          created_at: data.created_at,
          key_prefix: data.key_prefix ?? null,
          created_by_member_id: actorOf(recorded),
        },
      });
      break;
    }
    case 'api_key.revoked':
      changes.push({ kind: 'revoked', id: event.data.api_key_id, revoked_at: event.data.revoked_at });
      break;
    default:
      break;
  }
  return changes;
}
