import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { createApiKey, createTemplate, type Team } from '../../helpers/tenant.ts';
import { Browser, signUp } from '../workspace-fixtures.ts';
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
 * The onboardings list that scales, over real HTTP and PostgreSQL: search by the client's
 * sealed name (blind index) or the template's name, sort, the "waiting for review" filter
 * (projections/onboardings/awaiting-review.ts), the CSV export of the whole view parsed back,
 * and bulk actions that refuse another team's ids and never pass the reminder limit.
 */

let service: TestService;
let tenant: Tenant;
let owner: Browser;
let stranger: Browser;
let strangerOnboarding: string;
const ids = { ada: '', evil: '', unreviewed: '', approved: '', kyc: '' };
const drafts: string[] = [];

type Item = {
  id: string;
  status: string;
  review_state: string | null;
  answers_awaiting_review: number;
  client: { name: string };
  template: { name: string };
  assigned_to: string | null;
  archived_at: string | null;
};
const list = async (query: string, who = owner) => {
  const answer = await who.call(
    'GET',
    `/workspace/v1/onboardings?${query.includes('limit=') ? query : `limit=100&${query}`}`,
  );
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as { data: Item[]; total: number; total_capped: boolean };
};
const bulk = (body: unknown, who = owner) => who.call('POST', '/workspace/v1/onboardings/bulk', body);

async function approveAll(onboardingId: string) {
  const answers = await owner.call('GET', `/workspace/v1/onboardings/${onboardingId}/answers`);
  for (const answer of answers.body.answers as Array<{ field_id: string }>) {
    const reviewed = await owner.call(
      'POST',
      `/workspace/v1/onboardings/${onboardingId}/answers/${answer.field_id}/review`,
      { decision: 'approve' },
    );
    expect(reviewed.status).toBe(200);
  }
}

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  const team = await signUp(service, 'lists-owner@example.com', 'a long lists passphrase');
  owner = team.owner;
  const key = await createApiKey(service, team.teamId);
  const template = await createTemplate(service, team.teamId, formTemplate());
  tenant = {
    ...key,
    teamId: team.teamId,
    team: { id: team.teamId } as Team,
    template,
    ids: formIds(template),
  };
  const kyc = await createTemplate(service, team.teamId, { ...formTemplate(), name: 'Know your customer' });

  ids.ada = (await sentOnboarding(service, tenant, { client: { name: 'Ada Lovelace' } })).onboardingId;
  ids.evil = (
    await sentOnboarding(service, tenant, {
      client: { name: '=HYPERLINK("http://x")', email: 'evil@example.com' },
    })
  ).onboardingId;
  const grace = await createClient(service, tenant, { name: 'Grace Hopper' });
  ids.kyc = (await createOnboarding(service, { ...tenant, template: kyc }, grace.id)).id;
  const unreviewed = await sentOnboarding(service, tenant, { client: { name: 'Una Unreviewed' } });
  await completeForm(service, tenant, unreviewed.token, 'Una Unreviewed');
  ids.unreviewed = unreviewed.onboardingId;
  const approved = await sentOnboarding(service, tenant, { client: { name: 'Abe Approved' } });
  await completeForm(service, tenant, approved.token, 'Abe Approved');
  ids.approved = approved.onboardingId;
  await approveAll(ids.approved);
  for (const name of ['Zed Draft', 'Bea Draft', 'Moe Draft']) {
    const client = await createClient(service, tenant, { name });
    drafts.push((await createOnboarding(service, tenant, client.id)).id);
  }

  const other = await signUp(service, 'lists-stranger@example.com', 'a long stranger passphrase', 'Other');
  stranger = other.owner;
  const otherKey = await createApiKey(service, other.teamId);
  const otherTemplate = await createTemplate(service, other.teamId, formTemplate());
  strangerOnboarding = (
    await sentOnboarding(service, {
      ...otherKey,
      teamId: other.teamId,
      team: { id: other.teamId } as Team,
      template: otherTemplate,
      ids: formIds(otherTemplate),
    })
  ).onboardingId;
}, 120_000);
afterAll(async () => {
  await service?.stop();
});

describe('the onboardings list', () => {
  it('searches the client’s sealed name and email by word starts, and the template’s name', async () => {
    expect((await list('q=lovel')).data.map((item) => item.id)).toEqual([ids.ada]);
    // Every word must be the client's: two of Ada's find her, one of hers with another's none.
    expect((await list('q=lovel%20ada')).data.map((item) => item.id)).toEqual([ids.ada]);
    expect((await list('q=ada%20evil')).total).toBe(0);
    expect((await list('q=evil%40example')).data.map((item) => item.id)).toEqual([ids.evil]);
    const byTemplate = await list('q=know%20your');
    expect(byTemplate.data.map((item) => item.id)).toEqual([ids.kyc]);
    expect(byTemplate.total).toBe(1);
    expect((await list('q=nobody')).total).toBe(0);
  });

  it('sorts by client in both directions, and by status in lifecycle order', async () => {
    const asc = (await list('sort=client&dir=asc')).data.map((item) => item.client.name);
    expect(asc).toEqual([...asc].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    expect(asc[0]).toBe('=HYPERLINK("http://x")');
    const desc = (await list('sort=client&dir=desc')).data.map((item) => item.client.name);
    expect(desc).toEqual([...asc].reverse());
    const page = await list('sort=client&dir=asc&limit=2&offset=1');
    expect(page.data.map((item) => item.client.name)).toEqual(asc.slice(1, 3));
    expect(page.total).toBe(asc.length);
    // Under the workspace's cap of 10,000 (decision 0104) the total is exact.
    expect(page.total_capped).toBe(false);
    const statuses = (await list('sort=status&dir=asc')).data.map((item) => item.status);
    expect(statuses[0]).toBe('draft');
    expect(statuses.at(-1)).toBe('completed');
  });

  it('finds a completed onboarding whose answers wait for review, not one whose answers are all approved', async () => {
    const waiting = await list('review=awaiting_review');
    expect(waiting.data.map((item) => item.id)).toEqual([ids.unreviewed]);
    expect(waiting.data[0]).toMatchObject({ status: 'completed', review_state: 'awaiting_review' });
    expect(waiting.data[0]!.answers_awaiting_review).toBeGreaterThan(0);
    const approved = (await list('status=completed')).data.find((item) => item.id === ids.approved);
    expect(approved).toMatchObject({ review_state: null, answers_awaiting_review: 0 });
  });

  it('exports every row of the view as CSV, not only the page, with formulas defused', async () => {
    const view = await list('status=sent&sort=client&dir=asc');
    const answer = await fetch(
      `${service.url}/workspace/v1/onboardings/export?status=sent&sort=client&dir=asc`,
      {
        headers: { cookie: owner.cookie },
      },
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('text/csv');
    expect(answer.headers.get('content-disposition')).toContain('attachment');
    const rows = parse(await answer.text(), { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((row) => row.id)).toEqual(view.data.map((item) => item.id));
    expect(rows.find((row) => row.id === ids.evil)?.client_name).toBe('\'=HYPERLINK("http://x")');
    const all = await fetch(`${service.url}/workspace/v1/onboardings/export`, {
      headers: { cookie: owner.cookie },
    });
    const everything = parse(await all.text(), { columns: true }) as unknown[];
    expect(everything).toHaveLength((await list('')).total);
  });
});

describe('bulk actions', () => {
  it('refuses another team’s ids, names each refusal, and does the rest', async () => {
    const foreign = await bulk({ action: 'archive', ids: [strangerOnboarding, drafts[0]] });
    expect(foreign.status).toBe(200);
    expect(foreign.body.done).toEqual([drafts[0]]);
    expect(foreign.body.refused).toEqual([
      expect.objectContaining({ id: strangerOnboarding, code: 'target_unavailable' }),
    ]);
    const theirs = await bulk({ action: 'archive', ids: [drafts[1]] }, stranger);
    expect(theirs.body).toMatchObject({ done: [], refused: [{ id: drafts[1], code: 'target_unavailable' }] });
    expect((await list('archived=only')).data.map((item) => item.id)).toEqual([drafts[0]]);

    const me = (await owner.call('GET', '/workspace/v1/me')).body;
    const memberId = (me.member?.id ?? me.id) as string;
    const assigned = await bulk({ action: 'assign', ids: [drafts[1], drafts[2]], assigned_to: memberId });
    expect(assigned.body.done).toHaveLength(2);
    expect((await list(`assignee=${memberId}`)).total).toBe(2);

    const reminded = await bulk({ action: 'remind', ids: [ids.ada, drafts[1]] });
    expect(reminded.body.done).toEqual([ids.ada]);
    expect(reminded.body.refused).toEqual([
      expect.objectContaining({ id: drafts[1], code: 'invalid_state', error: expect.any(String) }),
    ]);
  });

  it('never passes the reminder limit: 60 bulk reminders at once send 3 in all', async () => {
    const answers = await Promise.all(
      Array.from({ length: 60 }, () => bulk({ action: 'remind', ids: [ids.evil] })),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    const done = answers.flatMap((answer) => answer.body.done as string[]);
    expect(done).toHaveLength(3);
    const refused = answers.flatMap((answer) => answer.body.refused as Array<{ code: string }>);
    expect(new Set(refused.map((one) => one.code))).toEqual(new Set(['reminder_limit_reached']));
  });
});
