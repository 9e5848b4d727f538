/** The workspace API's client and onboarding answers the client and onboarding screens use. */
import type { OnboardingStatus } from '../../../../../onboardings/contract/statuses.ts';

export interface ClientView {
  id: string;
  name: string;
  email: string;
  company: string | null;
  phone: string | null;
  notes: string | null;
  created_at: string;
}

export { ONBOARDING_STATUSES, type OnboardingStatus } from '../../../../../onboardings/contract/statuses.ts';

export interface OnboardingView {
  id: string;
  status: OnboardingStatus;
  progress_pct: number;
  created_at: string;
  due_date: string | null;
  due_on: string | null;
  overdue: boolean;
  expires_at: string | null;
  assigned_to: string | null;
  assignee_name: string | null;
  archived_at: string | null;
  send_count: number;
  last_sent_at: string | null;
  link: 'not_sent' | 'active' | 'completed' | 'inactive';
  client: { id: string; name: string | null; email: string | null };
  template: { id: string; name: string };
}

export interface Usage {
  month: string;
  used: number;
  limit: number | 'unlimited';
}

/** Pure: the actions an onboarding's status allows on its page. */
export function allowedActions(onboarding: Pick<OnboardingView, 'status' | 'archived_at'>) {
  const { status } = onboarding;
  const archived = onboarding.archived_at !== null;
  const open = status === 'draft' || status === 'sent' || status === 'in_progress';
  const closed = !open;
  return {
    send: !archived && status === 'draft',
    resend: !archived && (status === 'sent' || status === 'in_progress'),
    cancel: !archived && open,
    reopen: !archived && closed,
    edit: !archived && open,
    archive: !archived,
    unarchive: archived,
  };
}

/** Pure: the query string of the onboardings list's filters (empty ones left out). */
export function listQuery(filters: Record<string, string>, limit: number, offset: number): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  params.set('limit', String(limit));
  params.set('offset', String(offset));
  return params.toString();
}
