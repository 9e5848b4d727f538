import { isOneOf } from '../../../shared/validation/one-of.ts';

/**
 * What an automation rule may be (client-onboarding-api.md, Automation rules): its trigger,
 * its action's type and the lengths of its texts. Pure: the service's schemas and the
 * workspace's rule form share this file.
 */

/** The four triggers, by event name. */
export const AUTOMATION_TRIGGERS = [
  'onboarding.completed',
  'payment.succeeded',
  'signature.signed',
  'onboarding.overdue',
] as const;
export type AutomationTrigger = (typeof AUTOMATION_TRIGGERS)[number];

export const isAutomationTrigger = isOneOf(AUTOMATION_TRIGGERS);

/** The four actions' types. */
export const AUTOMATION_ACTION_TYPES = [
  'send_email',
  'send_webhook',
  'create_onboarding',
  'notify_member',
] as const;
export type AutomationActionType = (typeof AUTOMATION_ACTION_TYPES)[number];

/** Limits of the spec (Limits: automation rule name; email subject, body, message). */
export const RULE_LIMITS = {
  name: 200,
  subject: 500,
  body: 10_000,
  message: 10_000,
  url: 500,
} as const;
