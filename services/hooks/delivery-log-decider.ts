import type { Decider, DomainEvent } from '../../shared/commands/decider.ts';
import { unknownCommand } from '../../shared/commands/decider.ts';

/**
 * What a team does with the delivery log of one target (a hook subscription or a signed
 * webhook endpoint): send a test delivery, replay deliveries. The queue rows themselves
 * are written by the command's writeRows; the command is built inside the stream's lock
 * from what the queue holds at that moment, so two replays at once queue one re-send
 * (the second finds the delivery already queued and decides nothing).
 */

export type DeliveryTargetKind = 'hook' | 'endpoint';

/** Stream of one target's delivery operations: `hook_delivery_log-<target_id>`. */
export const deliveryLogStream = (targetId: string) => `hook_delivery_log-${targetId}`;

interface Target {
  target_kind: DeliveryTargetKind;
  target_id: string;
  team_id: string;
}

export type TestDeliveryRequested = DomainEvent<
  'hook_delivery.test_requested',
  Target & { delivery_id: string; requested_at: string }
>;
export type DeliveriesReplayed = DomainEvent<
  'hook_delivery.replayed',
  Target & { delivery_ids: string[]; replayed_at: string }
>;
export type DeliveryLogEvent = TestDeliveryRequested | DeliveriesReplayed;

export type DeliveryLogCommand =
  | { type: 'RequestTestDelivery'; data: Target & { delivery_id: string }; metadata: { now: Date } }
  | {
      type: 'ReplayDeliveries';
      /** The deliveries that can be replayed now (delivered or failed, not queued already). */
      data: Target & { delivery_ids: string[] };
      metadata: { now: Date };
    };

export const deliveryLogDecider: Decider<null, DeliveryLogCommand, DeliveryLogEvent> = {
  initialState: () => null,
  evolve: (state) => state,
  decide(command) {
    const now = command.metadata.now.toISOString();
    switch (command.type) {
      case 'RequestTestDelivery':
        return [{ type: 'hook_delivery.test_requested', data: { ...command.data, requested_at: now } }];
      case 'ReplayDeliveries':
        if (command.data.delivery_ids.length === 0) return [];
        return [{ type: 'hook_delivery.replayed', data: { ...command.data, replayed_at: now } }];
      default:
        throw unknownCommand(command);
    }
  },
};
