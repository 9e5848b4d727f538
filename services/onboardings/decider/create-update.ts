import { DomainError } from '../../../shared/commands/decider.ts';
import type { OnboardingEvent, OnboardingStatus, OnboardingUpdated } from '../onboarding-events.ts';
import { DEFAULT_REMINDER_SCHEDULE, reminderTimes } from '../contract/reminder-schedule.ts';
import { sampleAgreementFields } from '../template-snapshot.ts';
import type { CreateOnboarding, UpdateOnboarding } from './commands.ts';
import { base, fail, fieldError, iso, requireForApi } from './rules.ts';
import type { Onboarding, OnboardingState } from './state.ts';

/** Create an onboarding and change it through PATCH (status, due date, assignee). */
export function create(command: CreateOnboarding, state: OnboardingState): OnboardingEvent[] {
  const { data, metadata } = command;
  if (state.status !== 'absent') throw new DomainError('onboarding_exists', 'Onboarding already exists');
  if (data.template === null) throw fail('template_missing');
  if (data.client === 'missing') throw fail('client_scope_missing');
  if (data.client === 'erased') throw fail('client_erasure_pending');
  if (data.template.source === 'gallery') {
    const sample = sampleAgreementFields(data.template.snapshot)[0];
    if (sample) {
      throw fieldError(
        'gallery_template_copy_required',
        `Signature field "${sample.field.label}" still holds the gallery template's sample agreement text; copy the template and write your own agreement first`,
        sample,
      );
    }
  }
  return [
    {
      type: 'onboarding_created',
      data: {
        onboarding_id: data.onboarding_id,
        team_id: data.team_id,
        client_id: data.client_id,
        template_id: data.template_id,
        template_source: data.template.source,
        template_snapshot: data.template.snapshot,
        token_hash: data.token_hash,
        due_date: data.due?.due_date ?? null,
        due_on: data.due?.due_on ?? null,
        due_timezone: data.due?.due_timezone ?? null,
        expires_at: data.expires_at,
        reminder_schedule: (data.reminder_schedule ?? DEFAULT_REMINDER_SCHEDULE).map((rule) => ({ ...rule })),
        created_at: iso(metadata.now),
      },
    },
  ];
}

/** PATCH accepts only cancelled or in_progress; the table allows these moves and no others. */
const PATCH_MOVES: Readonly<Record<'cancelled' | 'in_progress', ReadonlySet<OnboardingStatus>>> = {
  cancelled: new Set(['draft', 'sent', 'in_progress']),
  in_progress: new Set(['sent']),
};

export function update(command: UpdateOnboarding, state: OnboardingState): OnboardingEvent[] {
  const { data, metadata } = command;
  const onboarding = requireForApi(state, data.team_id);
  if (onboarding.client_erased_at !== null) throw fail('target_unavailable');
  if (data.assignee && data.assignee.member_id !== null && !data.assignee.is_current_member) {
    throw fail('invalid_assignee');
  }
  if (data.status && !PATCH_MOVES[data.status].has(onboarding.status)) {
    throw fail('invalid_state', { status: onboarding.status, requested: data.status });
  }
  const now = iso(metadata.now);
  const events: OnboardingEvent[] = [];
  const changes: OnboardingUpdated['data']['changes'] = {};
  if (data.due !== undefined) {
    const next = data.due ?? { due_date: null, due_on: null, due_timezone: null };
    const current = onboarding.due ?? { due_date: null, due_on: null, due_timezone: null };
    if (
      next.due_date !== current.due_date ||
      next.due_on !== current.due_on ||
      next.due_timezone !== current.due_timezone
    ) {
      Object.assign(changes, next);
    }
  }
  if (data.assignee && data.assignee.member_id !== onboarding.assigned_to) {
    changes.assigned_to = data.assignee.member_id;
  }
  if (Object.keys(changes).length > 0) {
    const reminders =
      'due_date' in changes ? remindersAfterDueChange(onboarding, changes, metadata.now) : undefined;
    events.push({
      type: 'onboarding_updated',
      data: {
        ...base(onboarding),
        changes,
        ...(reminders ? { reminders_at: reminders } : {}),
        updated_at: now,
      },
    });
  }
  if (data.status === 'cancelled') {
    events.push({
      type: 'onboarding_cancelled',
      data: { ...base(onboarding), from: onboarding.status, cancelled_at: now },
    });
  } else if (data.status === 'in_progress') {
    events.push({
      type: 'onboarding_marked_in_progress',
      data: { ...base(onboarding), from: 'sent', marked_at: now },
    });
  }
  return events;
}

/**
 * A new due date moves the due-relative reminders of a live link: the schedule is worked
 * out again from the latest send, the new due date and now, so times already past (sent
 * or not) drop out and are never sent late. Undefined when no link is waiting on reminders.
 */
function remindersAfterDueChange(
  onboarding: Onboarding,
  changes: OnboardingUpdated['data']['changes'],
  now: Date,
): string[] | undefined {
  if (onboarding.status !== 'sent' && onboarding.status !== 'in_progress') return undefined;
  if (onboarding.last_sent_at === null) return undefined;
  const dueAt = changes.due_date ? new Date(changes.due_date) : null;
  return reminderTimes(onboarding.reminder_schedule, new Date(onboarding.last_sent_at), dueAt, now);
}
