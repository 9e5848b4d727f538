import type { Decider, DomainEvent } from '../../shared/commands/decider.ts';
import { unhandledEvent, unknownCommand } from '../../shared/commands/decider.ts';

/**
 * A team's hook signing secret (the secret of every hook subscription delivery): made on
 * first need, rotated on request. The secret itself lives in hook_signing_secrets,
 * written by the command's writeRows; the events say only that it was made or rotated
 * and until when the previous one keeps signing.
 */

/** Stream of a team's hook signing secret: `hook_signing-<team_id>`. */
export const hookSigningStream = (teamId: string) => `hook_signing-${teamId}`;

export type HookSigningSecretCreated = DomainEvent<
  'hook_signing_secret.created',
  { team_id: string; created_at: string }
>;
export type HookSigningSecretRotated = DomainEvent<
  'hook_signing_secret.rotated',
  { team_id: string; rotated_at: string; previous_valid_until: string }
>;
export type HookSigningEvent = HookSigningSecretCreated | HookSigningSecretRotated;

export type HookSigningState = { status: 'absent' } | { status: 'present'; teamId: string };

export type HookSigningCommand =
  | { type: 'EnsureHookSigningSecret'; data: { team_id: string }; metadata: { now: Date } }
  | {
      type: 'RotateHookSigningSecret';
      data: { team_id: string; previous_valid_until: Date };
      metadata: { now: Date };
    };

export const hookSigningDecider: Decider<HookSigningState, HookSigningCommand, HookSigningEvent> = {
  initialState: () => ({ status: 'absent' }),
  evolve(state, event) {
    switch (event.type) {
      case 'hook_signing_secret.created':
        return { status: 'present', teamId: event.data.team_id };
      case 'hook_signing_secret.rotated':
        return state;
      default:
        return unhandledEvent(event, state);
    }
  },
  decide(command, state) {
    const created: HookSigningSecretCreated = {
      type: 'hook_signing_secret.created',
      data: { team_id: command.data.team_id, created_at: command.metadata.now.toISOString() },
    };
    switch (command.type) {
      // Made once: a second request (two deliveries at once) decides nothing.
      case 'EnsureHookSigningSecret':
        return state.status === 'absent' ? [created] : [];
      // Rotating a secret never made makes the first one: there is nothing to overlap.
      case 'RotateHookSigningSecret':
        if (state.status === 'absent') return [created];
        return [
          {
            type: 'hook_signing_secret.rotated',
            data: {
              team_id: command.data.team_id,
              rotated_at: command.metadata.now.toISOString(),
              previous_valid_until: command.data.previous_valid_until.toISOString(),
            },
          },
        ];
      default:
        throw unknownCommand(command);
    }
  },
};
