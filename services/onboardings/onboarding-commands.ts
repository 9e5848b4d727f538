import { randomUUID } from 'node:crypto';
import type { PoolClient } from '../../shared/db/pool.ts';
import { DomainError } from '../../shared/commands/decider.ts';
import { parseDeadline } from './deadlines.ts';
import { queueClientEmail } from './client-email.ts';
import { hashClientToken, hashPin, issueClientToken } from './link-secrets.ts';
import type { PlannedCreate } from './create-intents.ts';
import type { Deadline, OnboardingEvent } from './onboarding-events.ts';
import type { ReopenOnboarding, SendOnboarding } from './decider/commands.ts';

/** What a send and a reopen both give the decider: the new link and the send facts. */
type NewLinkData = ReopenOnboarding['data'];
import type { CommandMetadata } from '../../shared/commands/handle-command.ts';
import { clientFacts, createFacts, isCurrentMember, lockTeamSends, sendFacts } from './onboarding-facts.ts';
import { teamFacts, type TeamFacts } from '../../projections/teams/queries.ts';
import {
  runOnboardingCommand,
  type OnboardingDeps,
  type OnboardingOutcome,
  type RunOptions,
} from './onboarding-unit-of-work.ts';

/**
 * The API's onboarding commands (create, update, send) on the write side. Each runs inside
 * the caller's transaction `tx` (see ./onboarding-unit-of-work.ts; the route adds the
 * idempotency record to the same transaction). Refusals are DomainErrors whose `code` is
 * the API's error code.
 */

export interface CommandDeps extends OnboardingDeps {
  publicUrl: string;
}

/** The command deps of a route's context: its pool, its event store and the public URL. */
export const commandDeps = (context: OnboardingDeps & { settings: { PUBLIC_URL: string } }): CommandDeps => ({
  pool: context.pool,
  eventStore: context.eventStore,
  publicUrl: context.settings.PUBLIC_URL,
});

/** Which onboarding of which team a command is about. */
export interface OnboardingRef {
  team_id: string;
  onboarding_id: string;
}

/** A command on one onboarding as this file writes them: deps, transaction, input, now, metadata. */
export type OnboardingCommandCall<I> = (
  deps: CommandDeps,
  tx: PoolClient,
  input: I,
  now: Date,
  metadata: CommandMetadata,
) => Promise<OnboardingOutcome>;

export const DEADLINE_TEXT = (field: 'due_date' | 'expires_at') =>
  `${field} must be a date (YYYY-MM-DD) or a timestamp with offset`;

async function requireTeam(tx: PoolClient, teamId: string): Promise<TeamFacts> {
  const team = await teamFacts(tx, teamId);
  if (!team) throw new Error(`Team ${teamId} of an authenticated key has no read model row`);
  return team;
}

/** undefined: not given; null: cleared (or not set); invalid: 400 invalid_deadline. */
function deadline(
  field: 'due_date' | 'expires_at',
  value: unknown,
  timezone: string,
): Deadline | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  const parsed = parseDeadline(value, timezone);
  if (!parsed) throw new DomainError('invalid_deadline', DEADLINE_TEXT(field));
  return parsed;
}

export interface CreateOnboardingInput {
  team_id: string;
  template_id: string;
  client_id: string;
  due_date?: unknown;
  expires_at?: unknown;
}

export interface CreatePlan {
  /** The id and token an earlier attempt with the same Idempotency-Key planned (./create-intents.ts). */
  planned?: PlannedCreate;
  /** Keeps the plan with the rows parked before an EventStoreDB append. */
  keep?: (planned: PlannedCreate, tx: PoolClient) => Promise<void>;
  /** Drops the plan in the command's transaction, which keeps the idempotency answer instead. */
  forget?: (tx: PoolClient) => Promise<void>;
}

export async function createOnboarding(
  deps: CommandDeps,
  tx: PoolClient,
  input: CreateOnboardingInput,
  now: Date,
  metadata: CommandMetadata,
  plan: CreatePlan = {},
): Promise<OnboardingOutcome & { onboardingId: string; token: string }> {
  const facts = await createFacts(tx, input.team_id, input.template_id, input.client_id);
  if (!facts) throw new Error(`Team ${input.team_id} of an authenticated key has no read model row`);
  const { team, template, client } = facts;
  const due = deadline('due_date', input.due_date, team.timezone) ?? null;
  const expires = deadline('expires_at', input.expires_at, team.timezone) ?? null;
  const onboardingId = plan.planned?.onboardingId ?? randomUUID();
  const { token, hash } = plan.planned
    ? { token: plan.planned.token, hash: hashClientToken(plan.planned.token) }
    : issueClientToken();
  const outcome = await runOnboardingCommand(
    deps,
    tx,
    onboardingId,
    () => ({
      type: 'CreateOnboarding',
      data: {
        onboarding_id: onboardingId,
        team_id: team.id,
        client_id: input.client_id,
        template_id: input.template_id,
        template: template ?? null,
        client,
        token_hash: hash,
        due,
        expires_at: expires?.due_date ?? null,
        reminder_schedule: team.reminder_schedule,
      },
      metadata: { now },
    }),
    metadata,
    {
      async effects(_decided, own, held) {
        if (held) await plan.keep?.({ onboardingId, token }, own);
      },
    },
  );
  await plan.forget?.(tx);
  return { ...outcome, onboardingId, token };
}

export interface UpdateOnboardingInput {
  team_id: string;
  onboarding_id: string;
  status?: 'cancelled' | 'in_progress';
  /** undefined: unchanged; null: cleared. */
  due_date?: unknown;
  /** undefined: unchanged; null or '': unassign. */
  assigned_to?: string | null;
}

export async function updateOnboarding(
  deps: CommandDeps,
  tx: PoolClient,
  input: UpdateOnboardingInput,
  now: Date,
  metadata: CommandMetadata,
): Promise<OnboardingOutcome> {
  const team = await requireTeam(tx, input.team_id);
  const due = deadline('due_date', input.due_date, team.timezone);
  const memberId = input.assigned_to === '' ? null : input.assigned_to;
  return runOnboardingCommand(
    deps,
    tx,
    input.onboarding_id,
    async () => ({
      type: 'UpdateOnboarding',
      data: {
        team_id: team.id,
        ...(input.status === undefined ? {} : { status: input.status }),
        ...(due === undefined ? {} : { due }),
        ...(memberId === undefined
          ? {}
          : {
              assignee: {
                member_id: memberId,
                is_current_member: memberId !== null && (await isCurrentMember(tx, team.id, memberId)),
              },
            }),
      },
      metadata: { now },
    }),
    metadata,
  );
}

export interface SendOnboardingInput {
  team_id: string;
  onboarding_id: string;
  force: boolean;
  /** Exactly 6 digits (validated at the edge), or undefined to carry the previous PIN over. */
  pin?: string;
}

/**
 * Send or resend: a new client link (see runNewLinkCommand), `force` to send again to a
 * recipient the checks would hold back.
 */
export async function sendOnboarding(
  deps: CommandDeps,
  tx: PoolClient,
  input: SendOnboardingInput,
  now: Date,
  metadata: CommandMetadata,
): Promise<OnboardingOutcome> {
  return runNewLinkCommand(
    deps,
    tx,
    { ...input, team: await requireTeam(tx, input.team_id) },
    now,
    metadata,
    {
      inviteEvent: 'onboarding.sent',
      command: (link) => ({
        type: 'SendOnboarding',
        data: { ...link, force: input.force },
        metadata: { now },
      }),
    },
  );
}

/**
 * A new client link, by a send or a reopen. The team's sends are serialized (advisory lock)
 * so the monthly count and the new-recipient count cannot be passed by two concurrent first
 * sends (or a send and a reopen). The invite is queued in mail_outbox in the same
 * transaction as `inviteEvent`.
 */
export async function runNewLinkCommand(
  deps: CommandDeps,
  tx: PoolClient,
  input: { team: TeamFacts; onboarding_id: string; pin?: string },
  now: Date,
  metadata: CommandMetadata,
  link: {
    inviteEvent: OnboardingEvent['type'];
    command: (data: NewLinkData) => SendOnboarding | ReopenOnboarding;
    /** A reopen's email says why (kind 'reopened'); a send's is the invite. */
    reason?: string | null;
  },
): Promise<OnboardingOutcome> {
  const { team } = input;
  const pin = input.pin === undefined ? null : await hashPin(input.pin);
  const { token, hash } = issueClientToken();
  await lockTeamSends(tx, team.id);
  let client = { status: 'missing', name: null, email: null } as Awaited<ReturnType<typeof clientFacts>>;
  return runOnboardingCommand(
    deps,
    tx,
    input.onboarding_id,
    async (state) => {
      const clientId = state.status === 'absent' ? null : state.client_id;
      if (clientId) client = await clientFacts(tx, team.id, clientId);
      return link.command({
        team_id: team.id,
        token_hash: hash,
        pin,
        facts: await sendFacts(tx, team, client, clientId ?? randomUUID(), now),
      });
    },
    metadata,
    {
      effects: inviteEffect(link.inviteEvent, {
        reason: link.reason,
        publicUrl: deps.publicUrl,
        team,
        token,
        now,
        client: () => client,
      }),
    },
  );
}

/**
 * The invite of a new link (a send or a reopen): queued in the outbox with the command's
 * operational rows when `eventType` was decided and the client has an email. `client` is
 * read when the effect runs, after the command has looked the client up.
 */
function inviteEffect(
  eventType: OnboardingEvent['type'],
  invite: {
    /** Set for a reopen (null: no reason given): the email is the 'reopened' kind. */
    reason?: string | null;
    publicUrl: string;
    team: Parameters<typeof queueClientEmail>[1]['team'];
    token: string;
    now: Date;
    client: () => { name: string | null; email: string | null };
  },
): NonNullable<RunOptions['effects']> {
  return async ({ state, events, eventIds }, tx, held) => {
    const index = events.findIndex((event) => event.type === eventType);
    const { name, email } = invite.client();
    if (index < 0 || state.status === 'absent' || !email) return;
    const mail =
      invite.reason === undefined
        ? ({ kind: 'invite', extra: { token: invite.token } } as const)
        : ({ kind: 'reopened', extra: { token: invite.token, reason: invite.reason } } as const);
    await queueClientEmail(tx, {
      ...mail,
      publicUrl: invite.publicUrl,
      team: invite.team,
      recipient: { name, email },
      onboarding: state,
      eventId: eventIds[index],
      at: invite.now,
      held,
    });
  };
}
