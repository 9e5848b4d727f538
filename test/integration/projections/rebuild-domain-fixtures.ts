import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import { inCommandTransaction, type CommandMetadata } from '../../../shared/commands/handle-command.ts';
import {
  runOnboardingCommand,
  type OnboardingOutcome,
} from '../../../services/onboardings/onboarding-unit-of-work.ts';
import { makeDocument } from '../../../services/onboardings/documents/documents-pass.ts';
import type { OnboardingCommand, OnboardingState } from '../../../services/onboardings/decider/index.ts';
import { reopenOnboarding } from '../../../services/onboardings/reopen-onboarding.ts';
import type { TestService } from '../../helpers/service.ts';
import { produceReviewLog } from './rebuild-review-fixtures.ts';
import {
  addMember,
  adminRequest,
  apiRequest,
  createApiKey,
  createGalleryTemplate,
  createTeamWithKey,
  createTemplate,
  deleteTemplate,
  removeMember,
  revokeApiKey,
  updateTeam,
  type HttpAnswer,
  type TeamWithKey,
  type TemplateInput,
} from '../../helpers/tenant.ts';
import {
  advanceClock,
  createClient,
  createTenant,
  drain,
  operatorLink,
  portal,
  uploadFile,
} from '../portal-fixtures.ts';

/**
 * The domain log of test/integration/projections/rebuild-domain.test.ts: everything through real HTTP
 * (operator API, public API with keys, the client portal), so that every projection of
 * allProjections gets rows from the events the service really writes. Choices that add
 * coverage (time zones, optional client fields, due date formats, extra onboardings and
 * how far each gets, PINs, forced resends, archive or not) come from a seeded generator;
 * the fixed scenarios alone already reach every status and event type.
 */

export const DAY = 24 * 3600;

/** mulberry32: a small seeded generator (the same as test/integration/projections/rebuild.test.ts). */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    chance: (p: number) => next() < p,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}
export type Random = ReturnType<typeof seededRandom>;

/** What the flow made: what the GET comparison of the test asks for. */
export interface DomainLog {
  teams: { teamId: string; apiKey: string }[];
  clientIds: string[];
  onboardingIds: string[];
  templateIds: string[];
}

function ok<Body>(answer: HttpAnswer<Body>, status: number, what: string): Body {
  if (answer.status !== status) {
    throw new Error(`${what}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return answer.body;
}

const TIME_ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Pacific/Auckland'];
/** Fixed-offset zones for deadlines given as timestamps (Z, +02:00, -05:00, +05:30, +13:00). */
const OFFSET_ZONES = ['UTC', 'UTC+2', 'UTC-5', 'UTC+5:30', 'UTC+13'];
const NAMES = ['Ada Lovelace', 'Grace Hopper', 'Zoë Ångström', 'Mạnh Nguyễn', 'Ola Nordmann', '李小龙'];

/** A one-step form (team B's own template and the gallery template). */
const simpleTemplate = (name: string): TemplateInput => ({
  name,
  vertical: 'legal',
  settings: { theme: 'green', logo: null },
  translations: { 'de-DE': { name: `${name} (DE)` } },
  steps: [
    {
      title: 'Contact',
      sort_order: 1,
      translations: { 'de-DE': { title: 'Kontakt' } },
      fields: [
        { type: 'short_text', label: 'Full name', sort_order: 1, is_required: true },
        { type: 'long_text', label: 'Anything else', sort_order: 2, config: { max_length: 2000 } },
      ],
    },
  ],
});

/** Runs the whole scenario; the service is drained at the end. */
export async function produceDomainLog(
  service: TestService,
  random: Random,
  hookTarget: string,
): Promise<DomainLog> {
  const log: DomainLog = { teams: [], clientIds: [], onboardingIds: [], templateIds: [] };
  /** Moves the service clock a little (sometimes not at all: equal timestamps must order by position). */
  const tick = async () => {
    if (random.chance(0.8)) ok(await advanceClock(service, random.int(1, 600)), 200, 'advance');
  };
  const now = () => DateTime.fromJSDate(service.clock.now());
  /** A deadline `days` ahead: a calendar date (team time zone) or a timestamp with a random offset. */
  const deadline = (days: number, timezone: string, format: 'date' | 'timestamp') =>
    format === 'date'
      ? now().setZone(timezone).plus({ days }).toISODate()!
      : now()
          .plus({ days, minutes: random.int(0, 600) })
          .setZone(random.pick(OFFSET_ZONES))
          .toISO({ suppressMilliseconds: random.chance(0.5) })!;
  const randomFormat = () => random.pick(['date', 'timestamp'] as const);
  /** A workspace command through the command pipeline, its read models caught up. */
  const workspaceCommand = async (
    work: (
      tx: Parameters<Parameters<typeof inCommandTransaction>[1]>[0],
      metadata: CommandMetadata,
    ) => Promise<OnboardingOutcome>,
  ) => {
    const metadata: CommandMetadata = {
      command_id: randomUUID(),
      request_id: randomUUID(),
      idempotency_key: null,
      api_key_id: null,
      causation_id: null,
      correlation_id: null,
    };
    const outcome = await inCommandTransaction(service.context, (tx) => work(tx, metadata));
    if (outcome.position !== undefined) await service.context.projections.waitForPosition(outcome.position);
  };

  // Teams, settings, members, API keys, templates.
  const timezoneA = random.pick(TIME_ZONES);
  const a = await createTenant(service, { plan: 'pro', timezone: timezoneA, email_sender_name: 'Northwind' });
  await tick();
  await updateTeam(service, a.teamId, {
    payments_connected: true,
    email_sender_name: random.pick(['Northwind Advisors', null]),
    monthly_onboarding_limit: random.pick([500, 'unlimited'] as const),
    locale: random.pick(['en-US', 'en-GB', 'de-DE']),
  });
  const timezoneB = random.pick(TIME_ZONES);
  const b = await createTeamWithKey(service, { plan: 'business', timezone: timezoneB });
  const templateB = await createTemplate(service, b.teamId, simpleTemplate('Legal intake'));
  log.teams.push({ teamId: a.teamId, apiKey: a.apiKey }, { teamId: b.teamId, apiKey: b.apiKey });
  log.templateIds.push(a.template.id, templateB.id);

  const admin = await addMember(service, a.teamId, { role: 'admin', name: 'Alice Admin' });
  const leaver = await addMember(service, a.teamId, { name: 'Leo Leaver' });
  await addMember(service, b.teamId, { role: 'owner' });
  await tick();
  await removeMember(service, a.teamId, leaver.id);

  const reporting = await createApiKey(service, a.teamId, ['clients:read', 'onboardings:read'], {
    name: 'Reporting',
    expires_on: now().plus({ days: 30 }).toISODate()!,
  });
  await createApiKey(service, b.teamId, ['templates:read'], { name: 'Templates only' });
  await tick();
  await revokeApiKey(service, a.teamId, reporting.apiKeyId);

  const retired = await createTemplate(service, a.teamId, {
    name: 'Retired form',
    description: null,
    steps: [
      {
        title: 'Only step',
        sort_order: 1,
        conditional_rules: { show_if: { field: 'x', equals: 'y' } },
        fields: [{ type: 'short_text', label: 'Q', sort_order: 1, translations: { fr: 'Q?' } }],
      },
    ],
  });
  await tick();
  await deleteTemplate(service, a.teamId, retired.id);
  const gallery = await createGalleryTemplate(service, simpleTemplate('Gallery starter'));
  log.templateIds.push(retired.id, gallery.id);

  // Hook subscriptions (one deleted) to a local HTTPS receiver.
  const subscribe = async (apiKey: string, event: string) =>
    ok(
      await apiRequest(service, apiKey, 'POST', '/automation/subscribe', {
        body: { event, target_url: `${hookTarget}/${event}` },
      }),
      201,
      'subscribe',
    ).id as string;
  const hooksA = [
    await subscribe(a.apiKey, 'onboarding.sent'),
    await subscribe(a.apiKey, 'onboarding.completed'),
    await subscribe(a.apiKey, 'response.submitted'),
  ];
  await subscribe(b.apiKey, 'onboarding.started');
  ok(
    await apiRequest(service, a.apiKey, 'DELETE', '/automation/subscribe', {
      body: { id: random.pick(hooksA) },
    }),
    200,
    'unsubscribe',
  );

  // Signed webhook endpoints (one deleted) to the same receiver.
  const endpoint = async (teamId: string, eventTypes: string[]) =>
    ok(
      await adminRequest(service, 'POST', `/teams/${teamId}/webhook-endpoints`, {
        url: `${hookTarget}/endpoint`,
        event_types: eventTypes,
      }),
      201,
      'webhook endpoint',
    ).endpoint.id as string;
  const endpointsA = [
    await endpoint(a.teamId, ['onboarding.sent', 'onboarding.cancelled']),
    await endpoint(a.teamId, ['onboarding.completed']),
  ];
  await endpoint(b.teamId, ['file.uploaded']);
  ok(
    await adminRequest(service, 'DELETE', `/teams/${a.teamId}/webhook-endpoints/${random.pick(endpointsA)}`),
    200,
    'delete webhook endpoint',
  );

  // Automation rules (one switched off, one deleted) for the rules read model.
  const rule = async (teamId: string, name: string) =>
    ok(
      await adminRequest(service, 'POST', `/teams/${teamId}/automation-rules`, {
        name,
        trigger: 'onboarding.completed',
        action: { type: 'send_email', subject: 'Thank you', body: 'We received your form.' },
      }),
      201,
      'automation rule',
    ).rule.id as string;
  const rulesA = [await rule(a.teamId, 'Thank the client'), await rule(a.teamId, 'Second thanks')];
  await rule(b.teamId, 'Thank the client');
  ok(
    await adminRequest(service, 'PATCH', `/teams/${a.teamId}/automation-rules/${rulesA[0]}`, {
      enabled: false,
    }),
    200,
    'switch a rule off',
  );
  ok(
    await adminRequest(service, 'DELETE', `/teams/${a.teamId}/automation-rules/${rulesA[1]}`),
    200,
    'delete a rule',
  );

  // Clients: some with optional fields and custom fields.
  const newClient = async (tenant: TeamWithKey) => {
    const extra: Record<string, unknown> = {};
    if (random.chance(0.6)) extra.company = random.pick(['Acme GmbH', 'Globex', 'Initech LLC']);
    if (random.chance(0.5)) extra.phone = `+1 555 01${random.int(10, 99)}`;
    if (random.chance(0.5)) extra.notes = random.pick(['  VIP  ', 'prefers email', 'ünïcødé ✓']);
    if (random.chance(0.6)) {
      extra.custom_fields = {
        tier: random.pick(['gold', 'silver']),
        seats: random.int(1, 50),
        tags: ['a', random.pick(['b', 'c'])],
        nested: { ok: random.chance(0.5), none: null },
      };
    }
    await tick();
    const client = await createClient(service, tenant, { name: random.pick(NAMES), ...extra });
    log.clientIds.push(client.id);
    return client;
  };
  const clientsA = [];
  for (let i = 0, n = random.int(6, 9); i < n; i++) clientsA.push(await newClient(a));
  const clientsB = [await newClient(b), await newClient(b)];

  /** Portal moves of one onboarding of team A's form, as its client would make them. */
  const form = (token: string, pin?: string) => {
    const call = async (method: string, path: string, status: number, body?: unknown) =>
      ok(await portal(service, token, method, path, { body, pin }), status, `${method} portal${path}`);
    return {
      open: () => call('GET', '', 200),
      answer: (fieldId: string, value: unknown) => call('PUT', `/answers/${fieldId}`, 200, { value }),
      submit: (stepId: string) => call('POST', `/steps/${stepId}/submit`, 200),
      sign: (name: string) =>
        call('POST', `/fields/${a.ids.fields.agreement}/signature`, 201, {
          signer_name: name,
          signer_email: 'signer@example.com',
        }),
      upload: async (name: string) =>
        ok(
          await uploadFile(
            service,
            token,
            a.ids.fields.idDocument,
            { name, content: `%PDF ${name} ${random.int(0, 1e6)}` },
            pin,
          ),
          201,
          'upload',
        ) as { file: { id: string } },
      removeFile: (fileId: string) => call('DELETE', `/files/${fileId}`, 200),
    };
  };
  /** POST /onboardings (team A's form unless template_id is given); answers the id. */
  const created = async (tenant: TeamWithKey, clientId: string, body: Record<string, unknown> = {}) => {
    await tick();
    const answer = await apiRequest(service, tenant.apiKey, 'POST', '/onboardings', {
      body: { template_id: a.template.id, client_id: clientId, ...body },
    });
    const { id } = ok(answer, 201, 'create onboarding').onboarding as { id: string };
    log.onboardingIds.push(id);
    return id;
  };
  /** POST /onboardings/:id/send; answers the clear token of the new link. */
  const sent = async (tenant: TeamWithKey, onboardingId: string, body: Record<string, unknown> = {}) => {
    await tick();
    ok(
      await apiRequest(service, tenant.apiKey, 'POST', `/onboardings/${onboardingId}/send`, { body }),
      200,
      'send onboarding',
    );
    const link = ok(await operatorLink(service, onboardingId), 200, 'operator link');
    if (!link.token) throw new Error('a sent onboarding has no active token');
    return link.token;
  };
  const patch = async (tenant: TeamWithKey, onboardingId: string, body: Record<string, unknown>) => {
    await tick();
    return ok(
      await apiRequest(service, tenant.apiKey, 'PATCH', `/onboardings/${onboardingId}`, { body }),
      200,
      'patch onboarding',
    );
  };
  const operator = async (path: string, body: unknown, status: number) => {
    await tick();
    return ok(await adminRequest(service, 'POST', path, body), status, `POST ${path}`);
  };
  /** Answers, files, signatures and submits until the form is completed. */
  const complete = async (f: ReturnType<typeof form>, name: string) => {
    const { fields, steps } = a.ids;
    await f.answer(fields.fullName, name.toUpperCase());
    await tick();
    await f.answer(fields.fullName, name); // a second save replaces the draft value
    if (random.chance(0.7)) await f.answer(fields.nickname, random.pick(['Ace', 'Bee', '🐝']));
    await tick();
    await f.submit(steps.about);
    // A wrong file first, taken back before the right one.
    const wrong = await f.upload('wrong scan.pdf');
    await tick();
    await f.removeFile(wrong.file.id);
    await f.upload(random.pick(['passport.pdf', 'Führerschein.pdf', 'id card.pdf']));
    await tick();
    await f.sign(name);
    if (random.chance(0.5)) await f.answer(fields.notes, 'see attachment, lines 1 and 2');
    await tick();
    return f.submit(steps.documents);
  };

  /** A command of the service itself on one onboarding (what Stripe's webhooks and the workspace run). */
  const onboardingCommand = (id: string, build: (state: OnboardingState) => OnboardingCommand) =>
    workspaceCommand((tx, metadata) => runOnboardingCommand(service.context, tx, id, build, metadata));
  const at = () => ({ now: service.clock.now() });

  // 1. Completed: calendar due date, PIN-less send, every kind of response, payment and what
  //    Stripe tells after it (a failed Checkout, a later period, a refund, the end),
  //    countersignature; archived.
  {
    const client = clientsA[0]!;
    const id = await created(a, client.id, { due_date: deadline(14, timezoneA, 'date') });
    const f = form(await sent(a, id));
    await f.open();
    const field_id = a.ids.fields.deposit;
    await onboardingCommand(id, () => ({
      type: 'RecordPaymentFailure',
      data: { field_id, checkout_session_id: 'cs_failed', payment_intent_id: null },
      metadata: at(),
    }));
    const intent = `pi_${random.int(1, 1e9)}`;
    await operator(
      `/onboardings/${id}/payments`,
      {
        field_id,
        amount_cents: 5000,
        payment_intent_id: intent,
        ...(random.chance(0.5) ? { subscription_id: 'sub_1', interval: 'month' } : {}),
      },
      201,
    );
    await tick();
    await onboardingCommand(id, () => ({
      type: 'RecordSubscriptionRenewal',
      data: { field_id, subscription_id: 'sub_1', invoice_id: 'in_2', amount_cents: 5000 },
      metadata: at(),
    }));
    await onboardingCommand(id, () => ({
      type: 'RecordRefund',
      data: {
        field_id,
        payment_intent_id: intent,
        charge_id: 'ch_1',
        amount_refunded_cents: 1000,
        fully_refunded: false,
      },
      metadata: at(),
    }));
    await onboardingCommand(id, () => ({
      type: 'RecordSubscriptionEnd',
      data: { field_id, subscription_id: 'sub_1' },
      metadata: at(),
    }));
    const done = await complete(f, client.name);
    if (done.onboarding.status !== 'completed') throw new Error('scenario 1 did not complete');
    // The signed PDF of the completion (the documents pass's work for one onboarding).
    if (!(await makeDocument(service.context, id))) throw new Error('scenario 1 made no document');
    await operator(
      `/onboardings/${id}/countersign`,
      { field_id: a.ids.fields.agreement, member_id: admin.id },
      201,
    );
    await operator(`/onboardings/${id}/archive`, undefined, 200);
    // The workspace's unarchive and reopen (the same commands its routes run), then archived again.
    await workspaceCommand((tx, metadata) =>
      runOnboardingCommand(
        service.context,
        tx,
        id,
        () => ({
          type: 'UnarchiveOnboarding',
          data: { team_id: a.teamId },
          metadata: { now: service.clock.now() },
        }),
        metadata,
      ),
    );
    await tick();
    await workspaceCommand((tx, metadata) =>
      reopenOnboarding(
        { ...service.context, publicUrl: service.context.settings.PUBLIC_URL },
        tx,
        { team_id: a.teamId, onboarding_id: id },
        service.clock.now(),
        metadata,
      ),
    );
    await operator(`/onboardings/${id}/archive`, undefined, 200);
    // A draft of the same client stays a draft, refreshed from its fixed template.
    const draft = await created(a, client.id, { due_date: deadline(20, timezoneA, randomFormat()) });
    await onboardingCommand(draft, (state) => ({
      type: 'RefreshTemplate',
      data: {
        team_id: a.teamId,
        member_id: admin.id,
        template:
          state.status === 'absent'
            ? null
            : { source: 'team', snapshot: { ...state.snapshot, description: 'Fixed after the draft' } },
      },
      metadata: at(),
    }));
  }

  // 2. Patched (assigned, due date as a timestamp, then as a date, then cleared or not), then
  //    cancelled (from draft or from sent).
  {
    const id = await created(a, clientsA[1]!.id, {
      due_date: deadline(5, timezoneA, 'timestamp'),
      expires_at: deadline(30, timezoneA, randomFormat()),
    });
    await patch(a, id, { assigned_to: admin.id, due_date: deadline(6, timezoneA, 'date') });
    await patch(a, id, random.chance(0.5) ? { due_date: null } : { assigned_to: '' });
    if (random.chance(0.5)) await sent(a, id);
    await patch(a, id, { status: 'cancelled' });
  }

  // 3. Sent, opened, answered, resent with a PIN (forced or after 5 minutes), opened with the
  //    PIN, answered again; due in 2 days, so reminders and the overdue timer fire later.
  {
    const id = await created(a, clientsA[2]!.id, { due_date: deadline(2, timezoneA, 'timestamp') });
    const first = form(await sent(a, id));
    await first.open();
    await first.answer(a.ids.fields.fullName, 'First try');
    const force = random.chance(0.5);
    if (!force) ok(await advanceClock(service, 6 * 60), 200, 'advance');
    const pin = String(random.int(100000, 999999));
    const token = await sent(a, id, { pin, force });
    const second = form(token, pin);
    await second.open();
    // The deposit arrived by bank transfer: an admin marks it paid.
    await onboardingCommand(id, () => ({
      type: 'MarkPaid',
      data: {
        team_id: a.teamId,
        field_id: a.ids.fields.deposit,
        payment_id: randomUUID(),
        member_id: admin.id,
        note: 'Bank transfer received',
      },
      metadata: at(),
    }));
    await second.answer(a.ids.fields.nickname, 'Second try');
    await patch(a, id, { assigned_to: admin.id });
    // A member sends a reminder now (its email is queued by the route; the event is all the read models see).
    await onboardingCommand(id, () => ({
      type: 'RemindClient',
      data: {
        team_id: a.teamId,
        member_id: admin.id,
        client: 'active',
        sending_paused: false,
        with_message: random.chance(0.5),
      },
      metadata: at(),
    }));
  }

  // 4. Expires: a link that ends in 4 days (reminder at 3 days first).
  {
    const id = await created(a, clientsA[3]!.id, { expires_at: deadline(4, timezoneA, randomFormat()) });
    await sent(a, id);
  }

  // 5. Marked in progress by the team (PATCH status from sent).
  {
    const id = await created(a, clientsA[4]!.id, { due_date: deadline(30, timezoneA, randomFormat()) });
    await sent(a, id);
    await patch(a, id, { status: 'in_progress' });
  }

  // 6. Team B: a gallery onboarding completed; one of its own sent, due in 1 day (overdue).
  {
    const galleryStep = gallery.template_steps[0]!;
    const id = await created(b, clientsB[0]!.id, { template_id: gallery.id });
    const token = await sent(b, id);
    const answer = (fieldIndex: number, value: unknown) =>
      portal(service, token, 'PUT', `/answers/${galleryStep.template_fields[fieldIndex]!.id}`, {
        body: { value },
      });
    ok(await portal(service, token, 'GET'), 200, 'open gallery onboarding');
    ok(await answer(0, clientsB[0]!.name), 200, 'answer');
    ok(await answer(1, 'multi\nline'), 200, 'answer');
    await tick();
    ok(await portal(service, token, 'POST', `/steps/${galleryStep.id}/submit`), 200, 'submit');
    const own = await created(b, clientsB[1]!.id, {
      due_date: deadline(1, timezoneB, randomFormat()),
      template_id: templateB.id,
    });
    await sent(b, own);
  }

  // 7. Random extra onboardings on the other clients of team A.
  for (const client of clientsA.slice(5)) {
    const id = await created(
      a,
      client.id,
      random.chance(0.6) ? { due_date: deadline(random.int(1, 12), timezoneA, randomFormat()) } : {},
    );
    const reach = random.pick(['draft', 'sent', 'opened', 'answered', 'completed', 'cancelled'] as const);
    if (reach === 'draft') continue;
    if (reach === 'cancelled') {
      await patch(a, id, { status: 'cancelled' });
      continue;
    }
    const f = form(await sent(a, id));
    if (reach === 'sent') continue;
    await f.open();
    if (reach === 'opened') continue;
    await f.answer(a.ids.fields.fullName, client.name);
    if (reach === 'completed') await complete(f, client.name);
  }

  // 8. Erasure: a client with answers, a file and a signature on one onboarding and a draft
  //    on another; erased before the timers run (its timers are cancelled).
  {
    const client = await newClient(a);
    const id = await created(a, client.id, { due_date: deadline(1, timezoneA, 'date') });
    const f = form(await sent(a, id));
    await f.open();
    await f.answer(a.ids.fields.fullName, client.name);
    await f.submit(a.ids.steps.about);
    await f.upload('secret.pdf');
    await f.sign(client.name);
    await created(a, client.id);
    await tick();
    ok(
      await adminRequest(service, 'POST', `/teams/${a.teamId}/clients/${client.id}/erase`),
      202,
      'erase client',
    );
  }

  // Reviews in the workspace: rejected, changes requested, approved, resubmitted.
  await produceReviewLog(service, `reviewer${random.int(1, 1e9)}@example.com`);

  // Time passes: reminders (3 and 7 days after each send), overdue and link expiry timers.
  ok(await drain(service), 200, 'drain');
  for (const days of [1, 2, 1, 1, 4]) {
    ok(await advanceClock(service, days * DAY + random.int(0, 3600)), 200, 'advance');
    ok(await drain(service), 200, 'drain');
  }
  // A payment after the link expired is still recorded (the processor confirmed it).
  const expired = await service.database.pool.query<{ id: string }>(
    `select id from onboardings where team_id = $1 and status = 'expired'`,
    [a.teamId],
  );
  if (expired.rows[0] && random.chance(0.5)) {
    await operator(
      `/onboardings/${expired.rows[0].id}/payments`,
      { field_id: a.ids.fields.deposit, amount_cents: 2500, payment_intent_id: 'pi_late' },
      201,
    );
  }
  ok(await drain(service), 200, 'drain');
  return log;
}
