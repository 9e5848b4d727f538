import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { parseDeadline, usageMonth } from '../../services/onboardings/deadlines.ts';
import { inviteEmail } from '../../services/onboardings/invite-email.ts';
import { hashPin, issueClientToken } from '../../services/onboardings/link-secrets.ts';
import type { TemplateSnapshot } from '../../services/onboardings/onboarding-events.ts';
import { reminderTimes, type ReminderRule } from '../../services/onboardings/contract/reminder-schedule.ts';
import { ACTIVE_CLIENT_WINDOW_MS, NEW_RECIPIENT_WINDOW_MS } from '../../services/onboardings/send-policy.ts';
import {
  fieldsNeedingAgreementText,
  sampleAgreementFields,
} from '../../services/onboardings/template-snapshot.ts';
import { queueMail } from '../../shared/mail/outbox.ts';

/**
 * The twin's create and send: the service's checks in the service's order (send-policy,
 * the decider's send), written as one would in a CRUD service: read the rows, check,
 * update them in place, inside the caller's transaction. Pure helpers of the service
 * (deadlines, reminder times, the invite's text) are reused so both sides do the same work.
 */
export class TwinRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(code);
  }
}

export interface TwinTeam {
  id: string;
  name: string;
  plan: string;
  timezone: string;
  email_sender_name: string | null;
  sending_paused: boolean;
  payments_connected: boolean;
  monthly_limit: number | null;
  unpaid: boolean;
  new_recipient_cap: number;
  reminder_schedule: ReminderRule[];
}

interface CreateInput {
  template_id: string;
  client_id: string;
  due_date?: string | null;
  expires_at?: string | null;
}

async function activeClient(tx: pg.PoolClient, teamId: string, clientId: string) {
  const { rows } = await tx.query<{ name: string | null; email: string | null; erased_at: Date | null }>(
    'select name, email, erased_at from clients where id = $1 and team_id = $2',
    [clientId, teamId],
  );
  const client = rows[0];
  if (!client) throw new TwinRefusal(404, 'client_scope_missing');
  if (client.erased_at) throw new TwinRefusal(410, 'client_erasure_pending');
  return client;
}

const deadline = (value: string | null | undefined, timezone: string) => {
  if (value === undefined || value === null) return null;
  const parsed = parseDeadline(value, timezone);
  if (!parsed) throw new TwinRefusal(400, 'invalid_deadline');
  return parsed;
};

export async function twinCreate(
  tx: pg.PoolClient,
  team: TwinTeam,
  input: CreateInput,
  tokenHash: string,
  now: Date,
) {
  const due = deadline(input.due_date, team.timezone);
  const expires = deadline(input.expires_at, team.timezone);
  const { rows: templates } = await tx.query<{ gallery: boolean; snapshot: TemplateSnapshot }>(
    `select gallery, snapshot from templates
     where id = $1 and deleted_at is null and (team_id = $2 or (gallery and team_id is null))`,
    [input.template_id, team.id],
  );
  const template = templates[0];
  if (!template) throw new TwinRefusal(404, 'template_missing');
  await activeClient(tx, team.id, input.client_id);
  if (template.gallery && sampleAgreementFields(template.snapshot).length > 0) {
    throw new TwinRefusal(409, 'gallery_template_copy_required');
  }
  const id = randomUUID();
  const createdAt = now.toISOString();
  await tx.query(
    `insert into onboardings (id, team_id, client_id, template_id, template_source, template_name,
       template_snapshot, status, progress_pct, created_at, due_date, due_at, due_on, due_timezone,
       expires_at, send_count, updated_at, reminder_schedule)
     values ($1, $2, $3, $4, $5, $6, $7, 'draft', 0, $8, $9::text, $9::timestamptz, $10, $11, $12, 0, $8, $13)`,
    [
      id,
      team.id,
      input.client_id,
      input.template_id,
      template.gallery ? 'gallery' : 'team',
      template.snapshot.name,
      template.snapshot,
      createdAt,
      due?.due_date ?? null,
      due?.due_on ?? null,
      due?.due_timezone ?? null,
      expires?.due_date ?? null,
      JSON.stringify(team.reminder_schedule),
    ],
  );
  await tx.query(
    `insert into onboarding_links (token_hash, onboarding_id, team_id, send_number, issued_at)
     values ($1, $2, $3, 0, $4)`,
    [tokenHash, id, team.id, createdAt],
  );
  return {
    id,
    status: 'draft',
    progress_pct: 0,
    created_at: createdAt,
    due_date: due?.due_date ?? null,
    due_on: due?.due_on ?? null,
    due_timezone: due?.due_timezone ?? null,
    expires_at: expires?.due_date ?? null,
    assigned_to: null,
  };
}

interface OnboardingRow {
  client_id: string;
  status: string;
  archived_at: Date | null;
  send_count: number;
  template_snapshot: TemplateSnapshot;
  due_date: string | null;
  due_on: string | null;
  reminder_schedule: ReminderRule[];
  pin_hash: string | null;
  last_answer_saved_at: Date | null;
}

const CLOSED = new Set(['completed', 'cancelled', 'expired']);

export async function twinSend(
  tx: pg.PoolClient,
  team: TwinTeam,
  onboardingId: string,
  input: { force?: boolean; pin?: string | null },
  publicUrl: string,
  now: Date,
): Promise<void> {
  const pinHash = input.pin ? JSON.stringify(await hashPin(input.pin)) : null;
  const { token, hash } = issueClientToken();
  await tx.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`onboarding-send:${team.id}`]);
  const { rows } = await tx.query<OnboardingRow>(
    `select client_id, status, archived_at, send_count, template_snapshot, due_date, due_on,
            reminder_schedule, pin_hash, last_answer_saved_at
     from onboardings where id = $1 and team_id = $2 for update`,
    [onboardingId, team.id],
  );
  const onboarding = rows[0];
  if (!onboarding || onboarding.archived_at) throw new TwinRefusal(404, 'target_unavailable');
  const client = await activeClient(tx, team.id, onboarding.client_id);
  if (CLOSED.has(onboarding.status)) throw new TwinRefusal(409, 'invalid_state');
  if (fieldsNeedingAgreementText(onboarding.template_snapshot).length > 0) {
    throw new TwinRefusal(409, 'agreement_text_required');
  }
  if (team.sending_paused) throw new TwinRefusal(403, 'sending_paused');

  const month = usageMonth(now, team.timezone);
  const used = await tx.query<{ count: number }>(
    'select count(*)::int as count from onboarding_send_usage where team_id = $1 and usage_month = $2',
    [team.id, month],
  );
  const known = await tx.query('select 1 from onboarding_recipients where team_id = $1 and client_id = $2', [
    team.id,
    onboarding.client_id,
  ]);
  const recent = await tx.query<{ count: number }>(
    'select count(*)::int as count from onboarding_recipients where team_id = $1 and first_invited_at > $2',
    [team.id, new Date(now.getTime() - NEW_RECIPIENT_WINDOW_MS)],
  );
  const newRecipient = (known.rowCount ?? 0) === 0;
  if (team.unpaid && newRecipient && (recent.rows[0]?.count ?? 0) >= team.new_recipient_cap) {
    throw new TwinRefusal(429, 'recipient_cap_reached');
  }
  const counted = await tx.query('select 1 from onboarding_send_usage where onboarding_id = $1', [
    onboardingId,
  ]);
  const counts = (counted.rowCount ?? 0) === 0;
  if (counts && team.monthly_limit !== null && (used.rows[0]?.count ?? 0) >= team.monthly_limit) {
    throw new TwinRefusal(403, 'limit_reached');
  }
  if (
    onboarding.status === 'in_progress' &&
    !input.force &&
    onboarding.last_answer_saved_at &&
    now.getTime() - onboarding.last_answer_saved_at.getTime() < ACTIVE_CLIENT_WINDOW_MS
  ) {
    throw new TwinRefusal(409, 'requires_force');
  }

  const sentAt = now.toISOString();
  const sendNumber = onboarding.send_count + 1;
  const status = onboarding.status === 'in_progress' ? 'in_progress' : 'sent';
  const pin = pinHash ?? onboarding.pin_hash;
  await tx.query(
    `update onboardings set status = $2, send_count = $3, last_sent_at = $4, updated_at = $4, pin_hash = $5
     where id = $1`,
    [onboardingId, status, sendNumber, sentAt, pin],
  );
  await tx.query(
    'update onboarding_links set deactivated_at = $2 where onboarding_id = $1 and deactivated_at is null',
    [onboardingId, sentAt],
  );
  await tx.query(
    `insert into onboarding_links (token_hash, onboarding_id, team_id, send_number, issued_at) values ($1, $2, $3, $4, $5)`,
    [hash, onboardingId, team.id, sendNumber, sentAt],
  );
  if (counts) {
    await tx.query(
      `insert into onboarding_send_usage (onboarding_id, team_id, usage_month, counted_at) values ($1, $2, $3, $4)`,
      [onboardingId, team.id, month, sentAt],
    );
  }
  if (newRecipient) {
    await tx.query(
      `insert into onboarding_recipients (team_id, client_id, first_invited_at) values ($1, $2, $3)
       on conflict (team_id, client_id) do nothing`,
      [team.id, onboarding.client_id, sentAt],
    );
  }
  const reminders = reminderTimes(
    onboarding.reminder_schedule,
    now,
    onboarding.due_date ? new Date(onboarding.due_date) : null,
    now,
  );
  await tx.query(
    `update onboarding_timers set status = 'cancelled', updated_at = $2 where onboarding_id = $1 and status = 'scheduled'`,
    [onboardingId, sentAt],
  );
  if (reminders.length > 0) {
    await tx.query(
      `insert into onboarding_timers (id, onboarding_id, team_id, kind, key, due_at, status, created_at, updated_at)
       select gen_random_uuid(), $1, $2, 'reminder', 'reminder:' || $3 || ':' || at, at::timestamptz, 'scheduled', $4, $4
       from unnest($5::text[]) as at`,
      [onboardingId, team.id, sendNumber, sentAt, reminders],
    );
  }
  if (!client.email) return;
  const fromName = team.email_sender_name ?? team.name;
  const email = inviteEmail({
    publicUrl,
    fromName,
    clientName: client.name,
    templateName: onboarding.template_snapshot.name,
    dueDate: onboarding.due_date,
    dueOn: onboarding.due_on,
    pinRequired: pin !== null,
    token,
  });
  await queueMail(tx, {
    teamId: team.id,
    kind: 'invite',
    to: client.email,
    fromName,
    subject: email.subject,
    text: email.text,
    onboardingId,
    eventId: randomUUID(),
    at: now,
  });
}
