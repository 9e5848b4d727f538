/** The workspace's automation rules as the API answers them (GET /workspace/v1/automation-rules). */
import { hasAutomations as planHasAutomations, isPlan } from '../../../../../access/contract/plans.ts';
import type { AutomationActionType, AutomationTrigger } from '../../../../../automation/contract/rules.ts';
import type { components } from '../../../../shared/api/openapi.d.ts';
import type { ApiAnswer, ApiBody, Member } from '../../api.ts';
import type { Translate } from '../../i18n.ts';

export type Trigger = AutomationTrigger;
export type ActionType = AutomationActionType;

/** A rule's action as the API takes it (the body of POST /workspace/v1/automation-rules). */
export type Action = ApiBody<'/workspace/v1/automation-rules', 'post'>['action'];

/** A rule as the API answers it (the generated OpenAPI type). */
export type Rule = components['schemas']['WorkspaceAutomationRule'];

/** A placeholder a rule's texts may hold (GET /workspace/v1/automation-rules/placeholders). */
export type Placeholder = ApiAnswer<'/workspace/v1/automation-rules/placeholders', 'get'>['data'][number];

/** Pure: true when the team's plan includes automations (services/access/contract/plans.ts). */
export const hasAutomations = (plan: string): boolean => isPlan(plan) && planHasAutomations(plan);

/** The fields of the rule form, one text per field whatever the action. */
export interface RuleDraft {
  name: string;
  trigger: Trigger;
  type: ActionType;
  subject: string;
  body: string;
  url: string;
  template: string;
  member: string;
  message: string;
  enabled: boolean;
}

/** Pure: the form's fields of a rule (a new one: Onboarding completed, Send email). */
export function draftOf(rule: Rule | null): RuleDraft {
  const draft: RuleDraft = {
    name: rule?.name ?? '',
    trigger: rule?.trigger ?? 'onboarding.completed',
    type: rule?.action.type ?? 'send_email',
    subject: '',
    body: '',
    url: '',
    template: '',
    member: '',
    message: '',
    enabled: rule?.enabled ?? true,
  };
  const action = rule?.action;
  if (action?.type === 'send_email') Object.assign(draft, { subject: action.subject, body: action.body });
  if (action?.type === 'send_webhook') draft.url = action.url;
  if (action?.type === 'create_onboarding') draft.template = action.template_id;
  if (action?.type === 'notify_member')
    Object.assign(draft, { member: action.member_id, message: action.message });
  return draft;
}

/** Pure: the action the API takes from the form's fields. */
export function actionOf(draft: RuleDraft): Action {
  switch (draft.type) {
    case 'send_email':
      return { type: 'send_email', subject: draft.subject, body: draft.body };
    case 'send_webhook':
      return { type: 'send_webhook', url: draft.url.trim() };
    case 'create_onboarding':
      return { type: 'create_onboarding', template_id: draft.template.trim() };
    case 'notify_member':
      return { type: 'notify_member', member_id: draft.member, message: draft.message };
  }
}

/** Pure: the fields to check before sending: the name and the chosen action's fields. */
export function requiredOf(draft: RuleDraft): Record<string, { kind: 'required'; value: string }> {
  const fields: Record<string, string> = { name: draft.name };
  if (draft.type === 'send_email') Object.assign(fields, { subject: draft.subject, body: draft.body });
  if (draft.type === 'send_webhook') fields.url = draft.url;
  if (draft.type === 'create_onboarding') fields.template = draft.template;
  if (draft.type === 'notify_member') Object.assign(fields, { member: draft.member, message: draft.message });
  return Object.fromEntries(
    Object.entries(fields).map(([name, value]) => [name, { kind: 'required' as const, value }]),
  );
}

/** The form's text fields by the API's field paths of a refused placeholder. */
const TEXT_FIELDS: Record<string, string> = {
  '/action/subject': 'subject',
  '/action/body': 'body',
  '/action/message': 'message',
};

interface PlaceholderIssue {
  path: string;
  unknown: string[];
}

/**
 * Pure: the fields a refusal of unknown placeholders (422 unknown_placeholder) names, each
 * with a sentence naming the unknown ones and the placeholders that exist; null for any
 * other problem.
 */
export function placeholderErrors(
  problem: { code: string; details: unknown },
  t: Translate,
): Record<string, string> | null {
  if (problem.code !== 'unknown_placeholder') return null;
  const details = problem.details as { issues?: PlaceholderIssue[]; placeholders?: string[] } | null;
  const known = (details?.placeholders ?? []).join(', ');
  const errors: Record<string, string> = {};
  for (const issue of details?.issues ?? []) {
    const field = TEXT_FIELDS[issue.path];
    if (!field) continue;
    errors[field] = t('automations.unknownPlaceholder', {
      count: issue.unknown.length,
      unknown: issue.unknown.join(', '),
      known,
    });
  }
  return Object.keys(errors).length > 0 ? errors : null;
}

/** Pure: who receives the action, in words (what ./services/automation/actions.ts really does). */
export function recipientText(draft: RuleDraft, members: Member[], t: Translate): string {
  switch (draft.type) {
    case 'send_email':
      return t('automations.recipientClient');
    case 'notify_member': {
      const member = members.find((candidate) => candidate.id === draft.member);
      return member
        ? t('automations.recipientMember', { name: member.name, email: member.email })
        : t('automations.recipientMemberUnchosen');
    }
    case 'send_webhook':
      return t('automations.recipientWebhook');
    case 'create_onboarding':
      return t('automations.recipientOnboarding');
  }
}
