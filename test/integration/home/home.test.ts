import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { createApiKey, createTemplate, type Team } from '../../helpers/tenant.ts';
import { addMember, Browser, signUp } from '../workspace-fixtures.ts';
import { sectionStatement } from '../../../services/home/home-queries.ts';
import {
  completeForm,
  createClient,
  createOnboarding,
  formIds,
  formTemplate,
  sentOnboarding,
  type Tenant,
} from '../portal-fixtures.ts';

/*
 * Home (GET /workspace/v1/home) over real HTTP and PostgreSQL: onboardings completed through
 * the portal wait for review (oldest first, the signed-in member's own first), a sent-back
 * answer reads "changes requested", due dates make overdue and due this week, a draft waits
 * to be sent; the month's figures per template give the median from first send to
 * completion; another team sees none of it.
 */

const START = new Date('2026-11-16T09:00:00.000Z'); // a Monday, mid-month
const HOUR = 3600;

let service: TestService;
let owner: Browser;
let colleague: Browser;
let stranger: Browser;
let ownerId: string;
let teamId: string;
let tenant: Tenant;
const ids: Record<string, string> = {};

type Section = { total: number; items: Array<Record<string, any>> };
const home = async (browser: Browser) => {
  const answer = await browser.call('GET', '/workspace/v1/home');
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as {
    sections: Record<string, Section>;
    usage: { used: number; limit: number | 'unlimited'; month: string };
    templates: Array<{
      template: { id: string };
      sent: number;
      completed: number;
      median_seconds_to_complete: number | null;
    }>;
    counts: { templates: number; clients: number };
  };
};
const idsOf = (section: Section) => section.items.map((item) => item.id);
const day = (offset: number) => new Date(START.getTime() + offset * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  service.clock.set(START);
  const team = await signUp(service, 'home-owner@example.com', 'a long home passphrase');
  owner = team.owner;
  ownerId = team.memberId;
  teamId = team.teamId;
  ({ browser: colleague } = await addMember(service, owner, 'home-member@example.com', 'member'));
  ({ owner: stranger } = await signUp(
    service,
    'home-stranger@example.com',
    'a long stranger passphrase',
    'Other',
  ));
  const key = await createApiKey(service, team.teamId);
  const template = await createTemplate(service, team.teamId, formTemplate());
  tenant = {
    ...key,
    teamId: team.teamId,
    team: { id: team.teamId } as Team,
    template,
    ids: formIds(template),
  };
  const patch = (id: string, body: unknown) => owner.call('PATCH', `/workspace/v1/onboardings/${id}`, body);

  // First: sent now, completed an hour later.
  const first = await sentOnboarding(service, tenant, { client: { name: 'Ada First' } });
  service.clock.advance(HOUR);
  await completeForm(service, tenant, first.token, 'Ada First');
  // Second: assigned to the owner, sent, completed three hours later (the later one waiting).
  const second = await sentOnboarding(service, tenant, { client: { name: 'Grace Second' } });
  expect((await patch(second.onboardingId, { assigned_to: ownerId })).status).toBe(200);
  service.clock.advance(3 * HOUR);
  await completeForm(service, tenant, second.token, 'Grace Second');
  // Third: completed, then one answer sent back: changes requested, no longer awaiting review.
  const third = await sentOnboarding(service, tenant, { client: { name: 'Edsger Third' } });
  service.clock.advance(5 * HOUR);
  await completeForm(service, tenant, third.token, 'Edsger Third');
  const review = await owner.call(
    'POST',
    `/workspace/v1/onboardings/${third.onboardingId}/answers/${tenant.ids.fields.fullName}/review`,
    { decision: 'request_changes', reason: 'Please write your full name.' },
  );
  expect(review.status, JSON.stringify(review.body)).toBe(200);
  // Overdue (due yesterday) and due this week (in three days), both sent.
  const late = await sentOnboarding(service, tenant, { client: { name: 'Late Client' } });
  expect((await patch(late.onboardingId, { due_on: day(-1) })).status).toBe(200);
  const soon = await sentOnboarding(service, tenant, { client: { name: 'Soon Client' } });
  expect((await patch(soon.onboardingId, { due_on: day(3) })).status).toBe(200);
  // A draft never sent.
  const client = await createClient(service, tenant, { name: 'Draft Client' });
  const draft = await createOnboarding(service, tenant, client.id);
  Object.assign(ids, {
    first: first.onboardingId,
    second: second.onboardingId,
    third: third.onboardingId,
    late: late.onboardingId,
    soon: soon.onboardingId,
    draft: draft.id,
  });
}, 90_000);
afterAll(async () => {
  await service?.stop();
});

describe('Home', () => {
  it('lists each section with its total, the signed-in member’s own first, client names opened', async () => {
    const mine = await home(owner);
    const { sections } = mine;
    expect(idsOf(sections.awaiting_review!)).toEqual([ids.second, ids.first]);
    expect(sections.awaiting_review!.total).toBe(2);
    const waiting = sections.awaiting_review!.items[0]!;
    expect(waiting.assigned_to_me).toBe(true);
    expect(waiting.client.name).toBe('Grace Second');
    expect(waiting.template.id).toBe(tenant.template.id);
    expect(waiting.answers_awaiting_review).toBeGreaterThanOrEqual(2);
    expect(idsOf(sections.changes_requested!)).toEqual([ids.third]);
    expect(idsOf(sections.overdue!)).toEqual([ids.late]);
    expect(idsOf(sections.due_this_week!)).toEqual([ids.soon]);
    expect(idsOf(sections.drafts!)).toEqual([ids.draft]);
    expect(new Set(idsOf(sections.recently_completed!))).toEqual(new Set([ids.first, ids.second, ids.third]));
    expect(mine.usage).toMatchObject({ month: '2026-11', used: 5 });
    expect(mine.counts).toEqual({ templates: 1, clients: 6 });

    // Another member: no one's own first, so the one waiting longest leads.
    const theirs = await home(colleague);
    expect(idsOf(theirs.sections.awaiting_review!)).toEqual([ids.first, ids.second]);
    expect(theirs.sections.awaiting_review!.items[0]!.assigned_to_me).toBe(false);
  });

  it('gives the month’s figures per template: sent, completed, median from first send to completion', async () => {
    const [figures] = (await home(owner)).templates;
    expect(figures).toMatchObject({ template: { id: tenant.template.id }, sent: 5, completed: 3 });
    // Completed 1 h, 3 h and 5 h after their first sends: the median is 3 h.
    expect(figures!.median_seconds_to_complete).toBe(3 * HOUR);
  });

  it('shows another team nothing of this team', async () => {
    const other = await home(stranger);
    for (const section of Object.values(other.sections)) expect(section).toEqual({ total: 0, items: [] });
    expect(other.templates).toEqual([]);
    expect(other.counts).toEqual({ templates: 0, clients: 0 });
    expect(other.usage.used).toBe(0);
  });

  it('can read "changes requested", "overdue" and "due this week" off their own partial indexes', async () => {
    // With a handful of rows any index will do, so each plan is read with the section's index
    // the only one of onboardings besides its key (dropped in a transaction rolled back): the
    // plan uses it only if the section's condition proves the index's, word for word.
    const client = await service.context.pool.connect();
    const planWithOnly = async (
      index: string,
      section: 'changes_requested' | 'overdue' | 'due_this_week',
    ) => {
      await client.query('begin');
      try {
        const others = await client.query<{ name: string }>(
          `select indexname as name from pg_indexes
            where tablename = 'onboardings' and indexname <> all($1::text[])`,
          [[index, 'onboardings_pkey']],
        );
        for (const { name } of others.rows) await client.query(`drop index ${name}`);
        await client.query('set local enable_seqscan = off');
        const { text, values } = sectionStatement(section, teamId, ownerId, service.clock.now());
        const plan = await client.query<{ 'QUERY PLAN': string }>(`explain (costs off) ${text}`, values);
        return plan.rows.map((row) => row['QUERY PLAN']).join('\n');
      } finally {
        await client.query('rollback');
      }
    };
    try {
      expect(await planWithOnly('onboardings_team_sent_back', 'changes_requested')).toContain(
        'Index Scan using onboardings_team_sent_back',
      );
      expect(await planWithOnly('onboardings_team_open_due', 'overdue')).toContain(
        'Index Only Scan using onboardings_team_open_due',
      );
      expect(await planWithOnly('onboardings_team_open_due', 'due_this_week')).toContain(
        'Index Only Scan using onboardings_team_open_due',
      );
    } finally {
      client.release();
    }
  });

  it('asks for a session', async () => {
    expect((await new Browser(service).call('GET', '/workspace/v1/home')).status).toBe(401);
  });
});
