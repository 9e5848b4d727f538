import { randomBytes, randomUUID } from 'node:crypto';
import type { ClientCreated } from '../../services/clients/client-events.ts';
import { usageMonth } from '../../services/onboardings/deadlines.ts';
import type { OnboardingEvent, TemplateSnapshot } from '../../services/onboardings/onboarding-events.ts';
import { wrapDataKey, type WrappedDataKey } from '../../shared/privacy/key-encryption-key.ts';
import { sealWithKey } from '../../shared/privacy/personal-data-vault.ts';
import { processKeyRing } from '../../shared/privacy/process-key-ring.ts';

/**
 * One team's history as the service would have logged it over two years: its clients'
 * client.created and its onboardings' streams, each onboarding in one of the states a team
 * meets (draft, sent, in progress, completed and reviewed or waiting for review, changes
 * requested, cancelled, expired, archived; a due date on some, a third assigned to the
 * owner). Event types and data are the domain's own; every client has its own data key and
 * its personal fields and answers are sealed with it (shared/privacy/personal-data-vault.ts
 * sealWithKey, as the service seals them). Deterministic for a seed, apart from ids.
 */
export interface TeamSpec {
  teamId: string;
  /** The member onboardings are assigned to and who reviews. */
  ownerId: string;
  templateId: string;
  /** The snapshot the service made for an onboarding of this template. */
  snapshot: TemplateSnapshot;
  timezone: string;
  clients: number;
  onboardings: number;
  /** Events of the team's history: client.created plus the onboarding streams (autosaves fill up to it). */
  events: number;
  /** Domain for the clients' emails, so each team's are its own. */
  emailDomain: string;
  now: Date;
  seed: number;
}

export interface ClientSeed {
  id: string;
  key: Buffer;
  wrapped: WrappedDataKey;
  name: string;
  email: string;
  company: string;
  createdAt: Date;
}

export interface LogRow {
  event_id: string;
  stream_id: string;
  revision: number;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
}

/** An onboarding's rows outside the log that its commands write: the month's count, the invite kept 30 days. */
export interface OperationalRows {
  usage?: { onboarding_id: string; usage_month: string; counted_at: string };
  invite?: { onboarding_id: string; client_id: string; event_id: string; created_at: string };
}

const FIRST = ['Ada', 'Grace', 'Alan', 'Zoë', 'Émile', 'Katherine', 'Linus', 'Margaret', 'Dennis', 'Barbara'];
const LAST = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Ångström',
  'Zola',
  'Johnson',
  'Torvalds',
  'Hamilton',
  'Ritchie',
];
const COMPANY = ['Analytical', 'Navy', 'Bletchley', 'Nordic', 'Café', 'Langley', 'Kernel', 'Apollo', 'Bell'];

const DAY = 24 * 3600 * 1000;
const SPAN_DAYS = 730;
/** Mail is kept this long (MAIL_RETENTION_DAYS' default): older invites are purged. */
const MAIL_DAYS = 30;

type State = 'draft' | 'sent' | 'in_progress' | 'completed' | 'changes_requested' | 'cancelled' | 'expired';

interface Plan {
  state: State;
  reviewed: boolean;
  archived: boolean;
  due: boolean;
  assigned: boolean;
  /** Answers saved (in progress: some; completed: every field). */
  answers: number;
  baseEvents: number;
}

/** A small deterministic generator (mulberry32) per onboarding. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class TeamHistory {
  readonly clients: ClientSeed[];
  private readonly plans: Plan[];
  private readonly extra: Int32Array;
  private readonly fields: { stepId: string; fieldId: string }[];
  readonly totalEvents: number;

  constructor(readonly spec: TeamSpec) {
    this.fields = spec.snapshot.steps.flatMap((step) =>
      step.fields.map((field) => ({ stepId: step.id, fieldId: field.id })),
    );
    const ring = processKeyRing();
    this.clients = Array.from({ length: spec.clients }, (_, index) => {
      const id = randomUUID();
      const key = randomBytes(32);
      return {
        id,
        key,
        wrapped: wrapDataKey(ring, id, key),
        name: `${FIRST[index % FIRST.length]} ${LAST[(index * 7) % LAST.length]} ${index}`,
        email: `client-${index}@${spec.emailDomain}`,
        company: `${COMPANY[(index * 3) % COMPANY.length]} Ltd`,
        createdAt: new Date(this.createdAt(index) - 3600 * 1000),
      };
    });
    this.plans = Array.from({ length: spec.onboardings }, (_, index) => this.plan(index));
    const base = spec.clients + this.plans.reduce((sum, plan) => sum + plan.baseEvents, 0);
    // Autosaves fill the history up to its size: clients type, and the form saves as they do.
    const typing = this.plans.flatMap((plan, index) => (plan.answers > 0 ? [index] : []));
    const spare = Math.max(0, spec.events - base);
    this.extra = new Int32Array(spec.onboardings);
    typing.forEach((index, rank) => {
      this.extra[index] = Math.floor(spare / typing.length) + (rank < spare % typing.length ? 1 : 0);
    });
    this.totalEvents = base + (typing.length > 0 ? spare : 0);
  }

  /** Onboarding `index`'s creation: spread over two years, the newest last. */
  private createdAt(index: number): number {
    const { now, onboardings } = this.spec;
    return now.getTime() - SPAN_DAYS * DAY * (1 - index / onboardings) - 60_000;
  }

  private plan(index: number): Plan {
    const next = random(this.spec.seed * 1_000_003 + index);
    const age = this.spec.now.getTime() - this.createdAt(index);
    const recent = age <= 60 * DAY;
    const r = next();
    const state: State = recent
      ? r < 0.1
        ? 'draft'
        : r < 0.35
          ? 'sent'
          : r < 0.65
            ? 'in_progress'
            : r < 0.9
              ? 'completed'
              : 'changes_requested'
      : r < 0.05
        ? 'cancelled'
        : r < 0.1
          ? 'expired'
          : r < 0.14
            ? 'sent'
            : 'completed';
    const completed = state === 'completed' || state === 'changes_requested';
    const reviewed = state === 'completed' && next() < (recent ? 0.4 : 0.75);
    const closed = completed || state === 'cancelled' || state === 'expired';
    const archived = !recent && closed && next() < 0.5;
    const due = next() < (recent ? 0.6 : 0.3);
    const assigned = index % 3 === 0;
    const fields = this.fields.length;
    const answers = completed ? fields : state === 'in_progress' ? 1 + (index % Math.max(1, fields - 1)) : 0;
    let baseEvents = 1 + (assigned ? 1 : 0) + (archived ? 1 : 0);
    if (state !== 'draft') baseEvents += 1; // sent
    if (state === 'cancelled' || state === 'expired') baseEvents += 1;
    if (state === 'in_progress' || completed) baseEvents += 1 + answers; // started, answers
    if (completed) baseEvents += 2; // submitted, completed
    if (reviewed) baseEvents += fields;
    if (state === 'changes_requested') baseEvents += 1;
    return { state, reviewed, archived, due, assigned, answers, baseEvents };
  }

  private metadata(member: boolean): Record<string, unknown> {
    const request = randomUUID();
    return {
      command_id: randomUUID(),
      request_id: request,
      idempotency_key: null,
      api_key_id: null,
      causation_id: null,
      correlation_id: request,
      team_id: this.spec.teamId,
      ...(member ? { actor_member_id: this.spec.ownerId } : {}),
    };
  }

  /** The client.created events of clients [from, to). */
  clientRows(from: number, to: number): LogRow[] {
    const rows: LogRow[] = [];
    for (let index = from; index < Math.min(to, this.clients.length); index++) {
      const client = this.clients[index]!;
      const seal = (value: string) => sealWithKey(client.key, client.id, value);
      const event: ClientCreated = {
        type: 'client.created',
        data: {
          client_id: client.id,
          team_id: this.spec.teamId,
          name: seal(client.name),
          email: seal(client.email),
          company: seal(client.company),
          phone: null,
          notes: null,
          custom_fields: seal('{}'),
          locale: 'en-US',
          date_format: 'MM/DD/YYYY',
          timezone: this.spec.timezone,
          locale_chosen: false,
          date_format_chosen: false,
          created_at: client.createdAt.toISOString(),
        },
      };
      rows.push({
        event_id: randomUUID(),
        stream_id: `client-${client.id}`,
        revision: 0,
        type: event.type,
        data: event.data,
        metadata: this.metadata(true),
      });
    }
    return rows;
  }

  /** The streams of onboardings [from, to), and the rows their commands write beside the log. */
  onboardingRows(from: number, to: number): { log: LogRow[]; operational: OperationalRows[] } {
    const log: LogRow[] = [];
    const operational: OperationalRows[] = [];
    for (let index = from; index < Math.min(to, this.plans.length); index++) {
      const { events, rows } = this.onboarding(index);
      log.push(...events);
      operational.push(rows);
    }
    return { log, operational };
  }

  private onboarding(index: number): { events: LogRow[]; rows: OperationalRows } {
    const plan = this.plans[index]!;
    const { teamId, ownerId, now } = this.spec;
    const client = this.clients[index % this.clients.length]!;
    const id = randomUUID();
    const base = { onboarding_id: id, team_id: teamId };
    const created = this.createdAt(index);
    const age = now.getTime() - created;
    // Each step after the last, within the onboarding's age: the newest ones happen in minutes.
    const step = Math.min(3600 * 1000, age / 40);
    let clock = created;
    const at = (steps = 1) => new Date((clock += step * steps)).toISOString();
    const events: { event: OnboardingEvent; member: boolean }[] = [];
    const add = (event: OnboardingEvent, member = true) => events.push({ event, member });
    const rows: OperationalRows = {};
    let inviteOf: { revision: number; at: string } | undefined;

    const dueDate = plan.due ? new Date(created + (7 + (index % 28)) * DAY).toISOString() : null;
    const expires = plan.state === 'expired' ? new Date(created + 14 * DAY).toISOString() : null;
    const tokenHash = () => randomBytes(32).toString('hex');
    add({
      type: 'onboarding_created',
      data: {
        ...base,
        client_id: client.id,
        template_id: this.spec.templateId,
        template_source: 'team',
        template_snapshot: this.spec.snapshot,
        token_hash: tokenHash(),
        due_date: dueDate,
        due_on: null,
        due_timezone: null,
        expires_at: expires,
        created_at: new Date(created).toISOString(),
      },
    });
    if (plan.assigned) {
      add({
        type: 'onboarding_updated',
        data: { ...base, changes: { assigned_to: ownerId }, updated_at: at() },
      });
    }
    if (plan.state !== 'draft') {
      const sentAt = at();
      const sent = events.length;
      add({
        type: 'onboarding.sent',
        data: {
          ...base,
          client_id: client.id,
          send_number: 1,
          resend: false,
          from: 'draft',
          status: 'sent',
          counted: true,
          usage_month: usageMonth(new Date(sentAt), this.spec.timezone),
          new_recipient: index < this.clients.length,
          token_hash: tokenHash(),
          pin: null,
          pin_changed: false,
          forced: false,
          reminders_at: [],
          sent_at: sentAt,
        },
      });
      rows.usage = {
        onboarding_id: id,
        usage_month: usageMonth(new Date(sentAt), this.spec.timezone),
        counted_at: sentAt,
      };
      if (now.getTime() - Date.parse(sentAt) < MAIL_DAYS * DAY) inviteOf = { revision: sent, at: sentAt };
    }
    if (plan.state === 'cancelled') {
      add({ type: 'onboarding_cancelled', data: { ...base, from: 'sent', cancelled_at: at() } });
    }
    if (plan.state === 'expired') {
      add(
        {
          type: 'onboarding_expired',
          data: { ...base, from: 'sent', expires_at: expires!, expired_at: expires! },
        },
        false,
      );
      clock = Date.parse(expires!);
    }
    const completed = plan.state === 'completed' || plan.state === 'changes_requested';
    if (plan.state === 'in_progress' || completed) {
      add(
        {
          type: 'onboarding.started',
          data: { ...base, send_number: 1, from: 'sent', status: 'in_progress', started_at: at() },
        },
        false,
      );
      const responses = this.fields.map(() => randomUUID());
      const saves = plan.answers + this.extra[index]!;
      for (let save = 0; save < saves; save++) {
        const field = save % plan.answers;
        add(
          {
            type: 'answer_saved',
            data: {
              ...base,
              step_id: this.fields[field]!.stepId,
              field_id: this.fields[field]!.fieldId,
              response_id: responses[field]!,
              value: sealWithKey(client.key, client.id, `Answer ${field} of client ${index}, take ${save}`),
              saved_at: at(0.05),
            },
          },
          false,
        );
      }
      if (completed) {
        const steps = [...new Set(this.fields.map((field) => field.stepId))];
        for (const stepId of steps) {
          add(
            {
              type: 'response.submitted',
              data: {
                ...base,
                step_id: stepId,
                responses: this.fields.flatMap((field, slot) =>
                  field.stepId === stepId ? [{ response_id: responses[slot]!, field_id: field.fieldId }] : [],
                ),
                progress_pct: 100,
                submitted_at: at(),
              },
            },
            false,
          );
        }
        add(
          { type: 'onboarding.completed', data: { ...base, progress_pct: 100, completed_at: at() } },
          false,
        );
        if (plan.reviewed) {
          this.fields.forEach((field, slot) =>
            add({
              type: 'response_approved',
              data: {
                ...base,
                step_id: field.stepId,
                field_id: field.fieldId,
                response_id: responses[slot]!,
                member_id: ownerId,
                reviewed_at: at(0.1),
              },
            }),
          );
        }
        if (plan.state === 'changes_requested') {
          add({
            type: 'response_rejected',
            data: {
              ...base,
              step_id: this.fields[0]!.stepId,
              field_id: this.fields[0]!.fieldId,
              response_id: responses[0]!,
              member_id: ownerId,
              reason: 'Please give the full legal name',
              reviewed_at: at(0.1),
            },
          });
        }
      }
    }
    if (plan.archived) {
      add({ type: 'onboarding_archived', data: { ...base, archived_at: at(24 * 30) } });
    }
    const logged = events.map(({ event, member }, revision): LogRow => ({
      event_id: randomUUID(),
      stream_id: `onboarding-${id}`,
      revision,
      type: event.type,
      data: event.data,
      metadata: this.metadata(member),
    }));
    if (inviteOf) {
      // The invite names the onboarding.sent event that queued it.
      rows.invite = {
        onboarding_id: id,
        client_id: client.id,
        event_id: logged[inviteOf.revision]!.event_id,
        created_at: inviteOf.at,
      };
    }
    return { events: logged, rows };
  }
}
