import type { RecordedEvent } from '../../shared/event-store/event-store.ts';
import type { TemplateSnapshot } from './onboarding-events.ts';
import { paymentCurrency } from '../templates/contract/payment-amount.ts';

/**
 * The timeline of one onboarding (pure): its events (autosaves and file removals left
 * out: drafts are not steps of the journey), the mails sent about it, the hook deliveries
 * of its events and the automation runs it triggered, oldest first (newest last), each
 * with its time and who acted: the client, a member (metadata actor_member_id), an API key,
 * or the service. Event types this file does not name (reopened, unarchived and others
 * added later) appear under their own name. A step submitted again with answers the team
 * sent back (rejected or changes requested) is a resubmission: detail `resubmitted` true.
 */

export type TimelineActor =
  | { type: 'client' }
  | { type: 'member'; member_id: string }
  | { type: 'api_key'; api_key_id: string }
  | { type: 'stripe' }
  | { type: 'service' };

export interface TimelineEntry {
  at: string;
  /** The event type, or mail, hook_delivery, automation_run. */
  kind: string;
  actor: TimelineActor;
  /** Facts for the text: step and field labels, review reason, outcome, mail kind. */
  detail: Record<string, string | number | boolean | null>;
}

export interface MailRow {
  kind: string;
  status: string;
  created_at: string;
  sent_at: string | null;
}

export interface DeliveryRow {
  event_type: string;
  state: string;
  attempts: number;
  last_status_code: number | null;
  created_at: string;
  updated_at: string;
}

export interface RunRow {
  rule_name: string;
  trigger: string;
  state: string;
  queued_at: string;
  finished_at: string | null;
}

const LEFT_OUT = new Set(['answer_saved', 'file_removed']);
// The client's final submission completes the onboarding.
const BY_CLIENT = new Set([
  'onboarding.started',
  'response.submitted',
  'file.uploaded',
  'onboarding.completed',
]);

/** The domain time an event carries (its `*_at` of the service clock), else when it was recorded. */
function timeOf(event: RecordedEvent): string {
  const data = event.data as Record<string, unknown>;
  const key = Object.keys(data).find((name) => name.endsWith('_at') && typeof data[name] === 'string');
  const preferred = [
    'created_at',
    'sent_at',
    'started_at',
    'submitted_at',
    'reviewed_at',
    'completed_at',
  ].find((name) => typeof data[name] === 'string');
  return (preferred ? data[preferred] : key ? data[key] : event.recordedAt.toISOString()) as string;
}

function actorOf(event: RecordedEvent): TimelineActor {
  const member = event.metadata['actor_member_id'];
  if (typeof member === 'string') return { type: 'member', member_id: member };
  const data = event.data as { signer_role?: string; member_id?: string | null };
  if (event.type === 'signature.signed') {
    return data.signer_role === 'team_member' && data.member_id
      ? { type: 'member', member_id: data.member_id }
      : { type: 'client' };
  }
  if (BY_CLIENT.has(event.type)) return { type: 'client' };
  const apiKey = event.metadata['api_key_id'];
  if (typeof apiKey === 'string') return { type: 'api_key', api_key_id: apiKey };
  // A payment fact Stripe's signed webhook told (services/payments/stripe-event-scope.ts).
  if (event.metadata['actor'] === 'stripe') return { type: 'stripe' };
  return { type: 'service' };
}

function detailOf(event: RecordedEvent, snapshot: TemplateSnapshot | null): TimelineEntry['detail'] {
  const data = event.data as Record<string, unknown>;
  const step = snapshot?.steps.find((candidate) => candidate.id === data['step_id']);
  const field = step?.fields.find((candidate) => candidate.id === data['field_id']);
  const detail: TimelineEntry['detail'] = {};
  if (step) detail['step'] = step.title;
  if (field) detail['field'] = field.label;
  if (typeof data['reason'] === 'string') detail['reason'] = data['reason'];
  if (typeof data['send_number'] === 'number') detail['send_number'] = data['send_number'];
  if (typeof data['resend'] === 'boolean') detail['resend'] = data['resend'];
  if (typeof data['progress_pct'] === 'number') detail['progress_pct'] = data['progress_pct'];
  return { ...detail, ...paymentDetail(data, field?.config) };
}

/**
 * The payment facts of a payment event: the amount (a refund's: the refunded amount so far)
 * and its currency (the event's, else the field's), a full refund, Mark as paid's note.
 */
function paymentDetail(
  data: Record<string, unknown>,
  config: Record<string, unknown> | undefined,
): TimelineEntry['detail'] {
  const detail: TimelineEntry['detail'] = {};
  const amount = data['amount_refunded_cents'] ?? data['amount_cents'];
  if (typeof amount !== 'number') return detail;
  detail['amount_cents'] = amount;
  const currency = data['currency'] ?? (config ? paymentCurrency(config) : undefined);
  if (typeof currency === 'string' && currency !== '') detail['currency'] = currency.toLowerCase();
  if (typeof data['fully_refunded'] === 'boolean') detail['fully_refunded'] = data['fully_refunded'];
  if (typeof data['note'] === 'string') detail['note'] = data['note'];
  return detail;
}

/**
 * Follows the answers sent back (`sentBack`, field ids): true when `event` submits a step
 * holding one of them again (they return to the team then, as the decider's evolve does).
 */
function resubmits(event: RecordedEvent, snapshot: TemplateSnapshot | null, sentBack: Set<string>): boolean {
  const data = event.data as { field_id?: string; step_id?: string };
  if (event.type === 'response_rejected' || event.type === 'response_changes_requested') {
    if (data.field_id) sentBack.add(data.field_id);
  } else if (event.type === 'response_approved' && data.field_id) {
    sentBack.delete(data.field_id);
  } else if (event.type === 'response.submitted') {
    const step = snapshot?.steps.find((candidate) => candidate.id === data.step_id);
    const back = (step?.fields ?? []).filter((field) => sentBack.has(field.id));
    for (const field of back) sentBack.delete(field.id);
    return back.length > 0;
  }
  return false;
}

export function onboardingTimeline(
  events: readonly RecordedEvent[],
  { mails, deliveries, runs }: { mails: MailRow[]; deliveries: DeliveryRow[]; runs: RunRow[] },
): TimelineEntry[] {
  // Labels come from the template the onboarding followed at each event (a draft may refresh it).
  let snapshot: TemplateSnapshot | null = null;
  const entries: TimelineEntry[] = [];
  const sentBack = new Set<string>();
  for (const event of events) {
    if (event.type === 'onboarding_created' || event.type === 'onboarding_template_refreshed') {
      snapshot = (event.data as { template_snapshot?: TemplateSnapshot }).template_snapshot ?? snapshot;
    }
    if (LEFT_OUT.has(event.type)) continue;
    const detail = detailOf(event, snapshot);
    if (resubmits(event, snapshot, sentBack)) detail['resubmitted'] = true;
    entries.push({ at: timeOf(event), kind: event.type, actor: actorOf(event), detail });
  }
  for (const mail of mails) {
    entries.push({
      at: mail.sent_at ?? mail.created_at,
      kind: 'mail',
      actor: { type: 'service' },
      detail: { mail: mail.kind, status: mail.status },
    });
  }
  for (const delivery of deliveries) {
    entries.push({
      at: delivery.updated_at,
      kind: 'hook_delivery',
      actor: { type: 'service' },
      detail: {
        event: delivery.event_type,
        outcome: delivery.state,
        attempts: delivery.attempts,
        status_code: delivery.last_status_code,
      },
    });
  }
  for (const run of runs) {
    entries.push({
      at: run.finished_at ?? run.queued_at,
      kind: 'automation_run',
      actor: { type: 'service' },
      detail: { rule: run.rule_name, trigger: run.trigger, outcome: run.state },
    });
  }
  // Oldest first; equal times keep the order above (events in log order first).
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => Date.parse(a.entry.at) - Date.parse(b.entry.at) || a.index - b.index)
    .map(({ entry }) => entry);
}
