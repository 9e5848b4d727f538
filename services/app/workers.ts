import type { Platform } from '../../shared/app-deps.ts';
import type { DuePass } from '../../shared/work-queue/due-pass.ts';
import {
  automationQueuePass,
  automationRulesConsumer,
  type AutomationRulesConsumerDeps,
} from '../automation/index.ts';
import { clientSearchIndexPass } from '../clients/index.ts';
import {
  hookDeliveriesConsumer,
  hookDeliveriesPass,
  type HookDeliveriesConsumerDeps,
} from '../hooks/index.ts';
import { mailerPass } from '../mail/index.ts';
import { notificationDigestsPass, notificationsConsumer } from '../notifications/index.ts';
import {
  heldInvitesConsumer,
  onboardingDocumentsPass,
  onboardingTimersPass,
  pendingAppendsPass,
} from '../onboardings/index.ts';
import type { ServiceContext } from './context.ts';
import { retentionPass } from './retention-pass.ts';

/**
 * Every due pass of the service, in the order the scheduler loop and POST
 * /admin/v1/work/drain run them (shared/work-queue/due-pass.ts): onboarding timers, the
 * appends a crash left pending, hook deliveries due, the automation queue (on its 5-minute
 * passes), the signed PDFs of completed onboardings (with their confirmation emails), the mailer (only with SMTP_URL), so that mail an action queues goes out in the
 * same round; then retention and the client search index.
 */
export const duePasses: DuePass<ServiceContext>[] = [
  onboardingTimersPass,
  pendingAppendsPass,
  hookDeliveriesPass,
  automationQueuePass,
  onboardingDocumentsPass,
  notificationDigestsPass,
  mailerPass,
  retentionPass,
  clientSearchIndexPass,
];

/**
 * Starts every consumer on the subscription port (a worker's part): `hook-deliveries`
 * (queues a delivery per subscription), `automation-rules` (keeps the rules, queues action
 * runs) and, on EventStoreDB only, the invites written before their send's append.
 */
export async function startConsumers(
  context: HookDeliveriesConsumerDeps &
    AutomationRulesConsumerDeps &
    Pick<Platform, 'consumers' | 'eventStore'>,
): Promise<void> {
  await context.consumers.start(hookDeliveriesConsumer(context));
  await context.consumers.start(automationRulesConsumer(context));
  await context.consumers.start(notificationsConsumer(context));
  if (context.eventStore.kind === 'eventstoredb') await context.consumers.start(heldInvitesConsumer);
}
