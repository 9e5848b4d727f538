import { randomUUID } from 'node:crypto';
import { isoMicros } from '../hooks/index.ts';
import type { AutomationAction, AutomationTrigger } from './automation-rule-events.ts';
import { renderEmail, renderNotification } from './rendering.ts';
import { firmName, placeholderValues, SERVICE_SENDER_NAME, type OnboardingFacts } from './run-facts.ts';
import type { TeamWithOwner } from '../../projections/teams/queries.ts';

/**
 * The rule dialog's preview and test send: the action run against a sample onboarding,
 * rendered by the code real runs use (./rendering.ts, ./run-facts.ts). Pure: the caller
 * hands the team, the time and the member.
 */

export const SAMPLE_CLIENT = {
  name: 'Alex Sample',
  email: 'alex.sample@example.com',
  company: 'Sample & Co',
};

/** A sample onboarding of the trigger: complete for onboarding.completed, due in a week. */
export function sampleFacts(trigger: AutomationTrigger, now: Date): OnboardingFacts {
  const due = new Date(now.getTime() + 7 * 86_400_000);
  return {
    status: trigger === 'onboarding.completed' ? 'completed' : 'in_progress',
    client_id: '00000000-0000-4000-8000-000000000000',
    progress_pct: trigger === 'onboarding.completed' ? 100 : 60,
    due_date: due.toISOString(),
    due_on: due.toISOString().slice(0, 10),
    template_name: 'Sample onboarding',
    client_name: SAMPLE_CLIENT.name,
    client_email: SAMPLE_CLIENT.email,
    client_company: SAMPLE_CLIENT.company,
    client_date_format: null,
    client_timezone: null,
  };
}

/** What the action sends, as the preview shows it. */
export type Rendered =
  | { kind: 'email'; to: string; from_name: string; subject: string; text: string }
  | { kind: 'webhook'; url: string; body: string }
  | { kind: 'onboarding'; to: string };

/**
 * The action rendered for the sample onboarding. `to` of Send email is the sample client (a
 * real run writes to the onboarding's client); of Notify team member, the chosen member.
 */
export function renderSample(
  team: TeamWithOwner,
  trigger: AutomationTrigger,
  action: AutomationAction,
  now: Date,
  memberEmail: string | null,
): Rendered {
  const facts = sampleFacts(trigger, now);
  switch (action.type) {
    case 'send_email': {
      const from = firmName(team);
      const values = placeholderValues(facts, from, trigger, team);
      return { kind: 'email', to: SAMPLE_CLIENT.email, from_name: from, ...renderEmail(action, values) };
    }
    case 'notify_member': {
      const values = placeholderValues(facts, team.name, trigger, team);
      return {
        kind: 'email',
        to: memberEmail ?? '',
        from_name: SERVICE_SENDER_NAME,
        ...renderNotification(team.name, action.message, values),
      };
    }
    case 'send_webhook':
      return {
        kind: 'webhook',
        url: action.url,
        body: JSON.stringify(sampleWebhookBody(trigger, facts, now)),
      };
    case 'create_onboarding':
      return { kind: 'onboarding', to: SAMPLE_CLIENT.email };
  }
}

/** The Send webhook body (./webhook-body.ts) of the sample onboarding, without the trigger's extras. */
export function sampleWebhookBody(trigger: AutomationTrigger, facts: OnboardingFacts, now: Date) {
  const at = isoMicros(now.toISOString());
  return {
    id: randomUUID(),
    event: trigger,
    timestamp: at,
    data: {
      onboarding_id: '00000000-0000-4000-8000-000000000001',
      client_id: facts.client_id,
      template_id: '00000000-0000-4000-8000-000000000002',
      client_name: facts.client_name,
      client_email: facts.client_email,
      template_name: facts.template_name,
      status: facts.status,
      progress_pct: facts.progress_pct,
      created_at: at,
    },
  };
}
