import type { EventConsumer } from '../../shared/subscriptions/event-consumer.ts';
import type { Platform } from '../../shared/app-deps.ts';
import {
  hookDeliveriesConsumer,
  hookDeliveriesPass,
  type HookDeliveriesConsumerDeps,
  type HookDeliveryPassDeps,
} from '../hooks/hook-deliveries.ts';
import { mailerPass, type MailerDeps } from '../mail/mailer.ts';
import type { DuePass } from '../../shared/work-queue/due-pass.ts';
import { automationQueuePass, type AutomationQueueDeps } from './automation-queue.ts';
import { automationRulesConsumer, type AutomationRulesConsumerDeps } from './automation-consumer.ts';

/**
 * What the outbound side adds to a running service (services/app/runtime.ts):
 *
 * - consumers on the subscription port: `hook-deliveries` (queues a delivery per
 *   subscription) and `automation-rules` (keeps the rules, queues action runs);
 * - due passes (the scheduler loop and POST /admin/v1/work/drain): hook deliveries due
 *   (`deliverDueHooks`), the automation queue (`runDueAutomationActions`, on the 5-minute
 *   passes) and the mailer (`sendQueuedMail`, only with SMTP_URL), in that order so that
 *   mail an action queues goes out in the same round.
 */
export type OutboundPassDeps = HookDeliveryPassDeps & AutomationQueueDeps & MailerDeps;
export type OutboundConsumerDeps = HookDeliveriesConsumerDeps & AutomationRulesConsumerDeps;

export const outboundDuePasses: DuePass<OutboundPassDeps>[] = [
  hookDeliveriesPass,
  automationQueuePass,
  mailerPass,
];

export function outboundConsumers(context: OutboundConsumerDeps): EventConsumer[] {
  return [hookDeliveriesConsumer(context), automationRulesConsumer(context)];
}

export async function startOutboundConsumers(
  context: OutboundConsumerDeps & Pick<Platform, 'consumers'>,
): Promise<void> {
  for (const consumer of outboundConsumers(context)) await context.consumers.start(consumer);
}
