import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allProjections } from '../../../services/app/projections.ts';
import { rebuildProjections } from '../../../shared/projections/rebuild.ts';
import { readModelRows } from '../../helpers/read-models.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { adminRequest, apiRequest, createApiKey, createTemplate, type Team } from '../../helpers/tenant.ts';
import { addMember, Browser, signUp } from '../workspace-fixtures.ts';
import {
  completeForm,
  formIds,
  formTemplate,
  portal,
  sentOnboarding,
  uploadFile,
  type Tenant,
  drain,
} from '../portal-fixtures.ts';
import { invites } from '../onboardings-fixtures.ts';

/*
 * Review of answers in the workspace over real HTTP and PostgreSQL: a member rejects an
 * answer with a reason, the client changes only that answer and resubmits, the member sees
 * the versions and the diff and approves; GET /api/v1/responses keeps the rejected version
 * with its reason; the timeline, countersigning and file downloads; teams stay apart and
 * bad or racing reviews change nothing.
 */

let service: TestService;
let tenant: Tenant;
let owner: Browser;
let member: Browser;
let stranger: Browser;
let onboardingId: string;
let token: string;
let clientId: string;

const answers = async (who = member) => {
  const answer = await who.call('GET', `/workspace/v1/onboardings/${onboardingId}/answers`);
  expect(answer.status).toBe(200);
  return answer.body.answers as Array<{
    field_id: string;
    status: string;
    reason: string | null;
    versions: Array<{ number: number; value: unknown }>;
    reviews: Array<{ decision: string; member_name: string; version: number }>;
    diff: { kind: string; parts?: Array<{ value: string; added: boolean; removed: boolean }> } | null;
    value: unknown;
  }>;
};
const answerOf = async (fieldId: string) => (await answers()).find((one) => one.field_id === fieldId)!;
const review = (fieldId: string, body: unknown, who = member) =>
  who.call('POST', `/workspace/v1/onboardings/${onboardingId}/answers/${fieldId}/review`, body);
const responses = async () =>
  (await apiRequest(service, tenant.apiKey, 'GET', `/responses?onboarding_id=${onboardingId}`)).body
    .responses as Array<{
    id: string;
    field_id: string;
    value: unknown;
    status: string;
    rejection_reason: string | null;
  }>;
const eventTypes = async () => {
  const answer = await apiRequest(service, tenant.apiKey, 'GET', `/events?limit=100`);
  return (
    answer.body.events as Array<{ type: string; onboarding_id: string | null; data: Record<string, unknown> }>
  ).filter((event) => event.onboarding_id === onboardingId);
};
/**
 * The emails that send answers back. The client's copy of a completed onboarding is a
 * notification too, queued once its PDF is rendered in the background: left out, so the
 * count does not depend on when that happens.
 */
const sentBackEmails = async (id: string) =>
  (await invites(service, id)).filter(
    (mail) => mail.kind === 'notification' && !mail.subject.startsWith('Your copy of'),
  );

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  const team = await signUp(service, 'review-owner@example.com', 'a long review passphrase');
  owner = team.owner;
  ({ browser: member } = await addMember(service, team.owner, 'review-member@example.com', 'member'));
  ({ owner: stranger } = await signUp(
    service,
    'review-stranger@example.com',
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
  ({
    onboardingId,
    token,
    client: { id: clientId },
  } = await sentOnboarding(service, tenant));
  await completeForm(service, tenant, token, 'Ada Lovelace');
}, 90_000);
afterAll(async () => {
  await service?.stop();
});

describe('workspace review of answers', () => {
  it('lists every submitted answer with its first version', async () => {
    const fullName = await answerOf(tenant.ids.fields.fullName);
    expect(fullName).toMatchObject({ status: 'submitted', reason: null, diff: null, value: 'Ada Lovelace' });
    expect(fullName.versions.map((version) => version.value)).toEqual(['Ada Lovelace']);
  });

  it('another team’s member finds nothing (404) and changes nothing; signed out is 401', async () => {
    const base = `/workspace/v1/onboardings/${onboardingId}`;
    expect((await stranger.call('GET', `${base}/answers`)).status).toBe(404);
    expect((await stranger.call('GET', `${base}/timeline`)).status).toBe(404);
    expect((await review(tenant.ids.fields.fullName, { decision: 'approve' }, stranger)).status).toBe(404);
    expect(
      (await stranger.call('POST', `${base}/countersign`, { field_id: tenant.ids.fields.agreement })).status,
    ).toBe(404);
    expect((await new Browser(service).call('GET', `${base}/answers`)).status).toBe(401);
    expect((await answerOf(tenant.ids.fields.fullName)).status).toBe('submitted');
  });

  it('refuses a rejection without a reason, a reason over 2000 characters and an unknown decision (400); nothing changes', async () => {
    const before = (await eventTypes()).length;
    const field = tenant.ids.fields.fullName;
    for (const body of [
      { decision: 'reject' },
      { decision: 'request_changes', reason: '   ' },
      { decision: 'reject', reason: 'x'.repeat(2001) },
      { decision: 'maybe' },
    ]) {
      const answer = await review(field, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe('invalid_body');
    }
    expect((await review('no-such-field', { decision: 'approve' })).status).toBe(404);
    expect((await answerOf(field)).status).toBe('submitted');
    expect((await eventTypes()).length).toBe(before);
  });

  it('of two racing reviews of one answer one wins, the other is 409 invalid_state', async () => {
    // Two members approve at once: whichever wins, the answer ends approved, as the tests after expect.
    const field = tenant.ids.fields.idDocument;
    const results = await Promise.all([
      review(field, { decision: 'approve' }),
      review(field, { decision: 'approve' }, owner),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual([200, 409]);
    const refused = results.find((result) => result.status === 409)!;
    expect(refused.body).toMatchObject({
      code: 'invalid_state',
      error: 'Only a submitted answer can be reviewed',
    });
    expect((await answerOf(field)).reviews).toHaveLength(1);
  });

  it('rejects an answer with a reason: the client sees it, may change only that answer and resubmits', async () => {
    const { fields, steps } = tenant.ids;
    const rejected = await review(fields.fullName, {
      decision: 'reject',
      reason: 'Please write your full name',
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body.answer).toMatchObject({ status: 'rejected', reason: 'Please write your full name' });
    // The client is told in one email: the reason and the link at that answer.
    const told = await sentBackEmails(onboardingId);
    expect(told).toHaveLength(1);
    expect(told[0]!.text).toContain('Please write your full name');
    expect(told[0]!.text).toContain(`/f/${token}?field=${fields.fullName}`);
    expect((await responses()).find((one) => one.field_id === fields.fullName)).toMatchObject({
      status: 'rejected',
      rejection_reason: 'Please write your full name',
    });

    const form = await portal(service, token, 'GET');
    expect(form.body.onboarding.status).toBe('completed');
    expect(form.body.onboarding.reviews).toContainEqual({
      field_id: fields.fullName,
      status: 'rejected',
      reason: 'Please write your full name',
    });
    // Answers not sent back stay as they are.
    const other = await portal(service, token, 'PUT', `/answers/${fields.nickname}`, {
      body: { value: 'Ace' },
    });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('invalid_state');

    const changed = await portal(service, token, 'PUT', `/answers/${fields.fullName}`, {
      body: { value: 'Ada King Lovelace' },
    });
    expect(changed.status).toBe(200);
    const completedBefore = (await eventTypes()).filter(
      (event) => event.type === 'onboarding.completed',
    ).length;
    const submittedBefore = (await eventTypes()).filter(
      (event) => event.type === 'response.submitted',
    ).length;
    const resubmitted = await portal(service, token, 'POST', `/steps/${steps.about}/submit`);
    expect(resubmitted.status).toBe(200);
    expect(resubmitted.body.onboarding.status).toBe('completed');
    const after = await eventTypes();
    expect(after.filter((event) => event.type === 'response.submitted').length).toBe(submittedBefore + 1);
    expect(after.filter((event) => event.type === 'onboarding.completed').length).toBe(completedBefore);
    expect(after.find((event) => event.type === 'response_rejected')?.data).toMatchObject({
      field_id: fields.fullName,
    });
  });

  it('shows every version and a word diff since the review, then approves; the approved answer is locked', async () => {
    const { fields } = tenant.ids;
    const fullName = await answerOf(fields.fullName);
    expect(fullName.status).toBe('submitted');
    expect(fullName.versions.map((version) => version.value)).toEqual(['Ada Lovelace', 'Ada King Lovelace']);
    expect(fullName.reviews).toMatchObject([
      { decision: 'rejected', member_name: 'review-member@example.com', version: 1 },
    ]);
    expect(fullName.diff?.kind).toBe('words');
    expect(fullName.diff?.parts?.filter((part) => part.added).map((part) => part.value.trim())).toEqual([
      'King',
    ]);

    expect((await review(fields.fullName, { decision: 'approve' })).status).toBe(200);
    const all = (await responses()).filter((one) => one.field_id === fields.fullName);
    expect(all).toHaveLength(2);
    expect(all[0]).toMatchObject({
      value: 'Ada Lovelace',
      status: 'rejected',
      rejection_reason: 'Please write your full name',
    });
    expect(all[1]).toMatchObject({ value: 'Ada King Lovelace', status: 'approved', rejection_reason: null });
    expect(all[0]!.id).not.toBe(all[1]!.id);

    const locked = await portal(service, token, 'PUT', `/answers/${fields.fullName}`, {
      body: { value: 'Ada' },
    });
    expect(locked.status).toBe(409);
    expect(locked.body).toMatchObject({
      code: 'answer_locked',
      error: 'This answer was approved and can no longer be changed',
    });
    // The portal lists the current response of the field only.
    const form = await portal(service, token, 'GET');
    expect(
      form.body.onboarding.responses.filter((one: { field_id: string }) => one.field_id === fields.fullName),
    ).toHaveLength(1);
  });

  it('asks for changes on a file: the client replaces the file and resubmits', async () => {
    const { fields, steps } = tenant.ids;
    const agreement = await review(fields.agreement, {
      decision: 'request_changes',
      reason: 'Sign with your full name',
    });
    expect(agreement.status).toBe(200);
    expect((await responses()).find((one) => one.field_id === fields.agreement)).toMatchObject({
      status: 'changes_requested',
      rejection_reason: 'Sign with your full name',
    });
    const signed = await portal(service, token, 'POST', `/fields/${fields.agreement}/signature`, {
      body: { signer_name: 'Ada King Lovelace', signer_email: 'signer@example.com' },
    });
    expect(signed.status).toBe(201);
    // The race above left the ID document approved: locked to a new file.
    expect((await answerOf(fields.idDocument)).status).toBe('approved');
    const upload = await uploadFile(service, token, fields.idDocument, { name: 'x.pdf', content: 'x' });
    expect(upload.status).toBe(409);
    expect((upload.body as { code: string }).code).toBe('answer_locked');
    expect((await portal(service, token, 'POST', `/steps/${steps.documents}/submit`)).status).toBe(200);
    const after = await answerOf(fields.agreement);
    expect(after.status).toBe('submitted');
    expect(after.diff?.kind).toBe('values');
  });

  it('sends several answers back in one send: one email, the list shows Changes requested, the resubmission returns them to the team', async () => {
    const { fields, steps } = tenant.ids;
    const other = await sentOnboarding(service, tenant);
    await completeForm(service, tenant, other.token, 'Grace Hopper');
    const base = `/workspace/v1/onboardings/${other.onboardingId}`;
    const mails = () => sentBackEmails(other.onboardingId);
    const sendBack = (answers: unknown) => member.call('POST', `${base}/answers/send-back`, { answers });
    const reviewState = async () => (await member.call('GET', base)).body.onboarding.review_state;

    // Refusals change nothing and email nobody.
    expect((await sendBack([])).status).toBe(400);
    const twice = { field_id: fields.fullName, decision: 'reject', reason: 'Typo' };
    expect((await sendBack([twice, twice])).status).toBe(400);
    expect((await sendBack([{ ...twice, field_id: fields.nickname }])).status).toBe(409);
    expect((await stranger.call('POST', `${base}/answers/send-back`, { answers: [twice] })).status).toBe(404);
    expect(await mails()).toHaveLength(0);
    // Completed and not yet reviewed: the answers wait for the team.
    expect(await reviewState()).toBe('awaiting_review');

    const sent = await sendBack([
      { field_id: fields.agreement, decision: 'request_changes', reason: 'Sign with your legal name' },
      { field_id: fields.fullName, decision: 'reject', reason: 'Your full legal name, please' },
    ]);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const [mail, ...more] = await mails();
    expect(more).toHaveLength(0);
    expect(mail!.text).toContain('Sign with your legal name');
    expect(mail!.text).toContain('Your full legal name, please');
    expect(mail!.text).toContain(`/f/${other.token}?field=${fields.fullName}`);

    // The public status stays; the workspace says the onboarding waits on the client.
    const shown = (await member.call('GET', base)).body.onboarding;
    expect(shown).toMatchObject({ status: 'completed', review_state: 'changes_requested' });
    const listed = (await member.call('GET', '/workspace/v1/onboardings?limit=100')).body.data as Array<{
      id: string;
      review_state: string | null;
    }>;
    expect(listed.find((one) => one.id === other.onboardingId)?.review_state).toBe('changes_requested');
    expect(listed.find((one) => one.id === onboardingId)?.review_state).not.toBe('changes_requested');

    // The completed link keeps working; fixing one step leaves the other answer waiting on the client.
    expect((await portal(service, other.token, 'GET')).status).toBe(200);
    await portal(service, other.token, 'PUT', `/answers/${fields.fullName}`, {
      body: { value: 'Grace B. Hopper' },
    });
    expect((await portal(service, other.token, 'POST', `/steps/${steps.about}/submit`)).status).toBe(200);
    expect(await reviewState()).toBe('changes_requested');
    await portal(service, other.token, 'POST', `/fields/${fields.agreement}/signature`, {
      body: { signer_name: 'Grace B. Hopper', signer_email: 'signer@example.com' },
    });
    expect((await portal(service, other.token, 'POST', `/steps/${steps.documents}/submit`)).status).toBe(200);
    expect(await reviewState()).toBe('awaiting_review');

    const timeline = (await member.call('GET', `${base}/timeline`)).body.entries as Array<{
      kind: string;
      detail: Record<string, unknown>;
    }>;
    expect(
      timeline
        .filter((entry) => entry.kind === 'response.submitted')
        .map((entry) => entry.detail['resubmitted']),
    ).toEqual([undefined, undefined, true, true]);
    const waiting = async () => (await member.call('GET', base)).body.onboarding.answers_awaiting_review;
    const before = await waiting();
    for (const field of [fields.fullName, fields.agreement]) {
      const approved = await member.call('POST', `${base}/answers/${field}/review`, { decision: 'approve' });
      expect(approved.status).toBe(200);
    }
    // The two resubmitted answers are approved; the answers never reviewed still wait.
    expect(await waiting()).toBe(before - 2);
    expect(await reviewState()).toBe('awaiting_review');
  });

  it('countersigns a signature field as the signed-in member', async () => {
    const answer = await member.call('POST', `/workspace/v1/onboardings/${onboardingId}/countersign`, {
      field_id: tenant.ids.fields.agreement,
    });
    expect(answer.status).toBe(201);
    expect(answer.body.signature.signer_name).toBe('review-member@example.com');
    expect(
      (await eventTypes()).find(
        (event) => event.type === 'signature.signed' && event.data['signer_role'] === 'team_member',
      ),
    ).toBeDefined();
  });

  it('lists each signature with its evidence for the team (no-store); another team finds nothing', async () => {
    const path = `/workspace/v1/onboardings/${onboardingId}/signatures`;
    const answer = await member.call('GET', path, undefined, { 'user-agent': 'Review-Test/1.0' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const signatures = answer.body.signatures as Array<Record<string, unknown>>;
    // The client's signatures (signed again on a resubmission), then the member's countersignature.
    expect(new Set(signatures.map((one) => one['signer_role']))).toEqual(new Set(['client', 'team_member']));
    for (const signature of signatures) {
      expect(signature).toMatchObject({
        label: expect.any(String),
        signer_email: expect.stringContaining('@'),
        evidence: {
          ip: expect.stringMatching(/127\.0\.0\.1|::1/),
          user_agent: expect.any(String),
          consent_text: expect.any(String),
          answers_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
          answers_version: 1,
        },
      });
    }
    expect(signatures.at(-1)).toMatchObject({
      signer_role: 'team_member',
      signer_email: 'review-member@example.com',
    });
    expect((await stranger.call('GET', path)).status).toBe(404);
  });

  it('shows the timeline oldest first with who acted', async () => {
    const answer = await member.call('GET', `/workspace/v1/onboardings/${onboardingId}/timeline`);
    expect(answer.status).toBe(200);
    const entries = answer.body.entries as Array<{
      at: string;
      kind: string;
      actor: { type: string; name: string | null };
    }>;
    const kinds = entries.map((entry) => entry.kind);
    for (const kind of [
      'onboarding_created',
      'onboarding.sent',
      'mail',
      'onboarding.started',
      'response.submitted',
      'onboarding.completed',
      'response_rejected',
      'response_approved',
      'response_changes_requested',
      'signature.signed',
    ]) {
      expect(kinds, kind).toContain(kind);
    }
    expect(kinds).not.toContain('answer_saved');
    expect(kinds.indexOf('onboarding_created')).toBe(0);
    expect(entries.map((entry) => entry.at)).toEqual([...entries.map((entry) => entry.at)].sort());
    expect(entries.find((entry) => entry.kind === 'response_rejected')?.actor).toMatchObject({
      type: 'member',
      name: 'review-member@example.com',
    });
    expect(entries.find((entry) => entry.kind === 'response.submitted')?.actor.type).toBe('client');
  });

  it('downloads an uploaded file as an attachment with nosniff; an erased client’s files are gone', async () => {
    const form = await portal(service, token, 'GET');
    const file = form.body.onboarding.files[0] as { id: string; file_name: string; content_type: string };
    const path = `/workspace/v1/onboardings/${onboardingId}/files/${file.id}`;
    const response = await fetch(`${service.url}${path}`, { headers: { cookie: member.cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toContain(`filename="${file.file_name}"`);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-type')).toContain(file.content_type);
    expect(await response.text()).toBe('PDF');
    expect((await stranger.call('GET', path)).status).toBe(404);

    const erased = await adminRequest(service, 'POST', `/teams/${tenant.teamId}/clients/${clientId}/erase`);
    expect(erased.status).toBe(202);
    expect((await member.call('GET', path)).status).toBe(404);
    expect((await member.call('GET', `/workspace/v1/onboardings/${onboardingId}/answers`)).status).toBe(404);
  });

  it('a rebuild of the read models after the review journey equals the live tables', async () => {
    await drain(service);
    const live = await readModelRows(service.database.pool);
    expect(live['responses']!.some((row) => row.includes('"rejected"'))).toBe(true);
    await rebuildProjections(service.database.pool, service.context.eventStore, allProjections, () => {});
    expect(await readModelRows(service.database.pool)).toEqual(live);
  });
});
