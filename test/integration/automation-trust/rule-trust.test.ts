import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOutboundService, drain } from '../automation-fixtures.ts';
import { startSmtpServer, type SmtpTestServer } from '../../helpers/smtp.ts';
import { startHttpsReceiver, type HttpsReceiver } from '../../helpers/https-receiver.ts';
import type { TestService } from '../../helpers/service.ts';
import { signUp, type Browser } from '../workspace-fixtures.ts';

/*
 * Automations you can trust, over real HTTP, PostgreSQL, SMTP and an HTTPS receiver: unknown
 * placeholders refused with the list, the preview rendered by the server, Send a test to the
 * member's own address and to the webhook's URL, and the test send's limit under a burst.
 */

let service: TestService;
let smtp: SmtpTestServer;
let receiver: HttpsReceiver;
let owner: Browser;

beforeAll(async () => {
  smtp = await startSmtpServer();
  receiver = await startHttpsReceiver();
  service = await startOutboundService({ SMTP_URL: smtp.url, RATE_LIMITS: 'on' });
  ({ owner } = await signUp(service, 'trust-owner@example.com', 'correct horse battery staple', 'Trusty'));
}, 60_000);
afterAll(async () => {
  await service?.stop();
  await smtp?.close();
  await receiver?.close();
});

const email = (subject: string, body: string) => ({ type: 'send_email', subject, body });

describe('automation rules you can trust', () => {
  it('a rule with {{client.name}} is refused in words, naming the field and listing the placeholders', async () => {
    const answer = await owner.call('POST', '/workspace/v1/automation-rules', {
      name: 'Welcome',
      trigger: 'onboarding.completed',
      action: email('Thanks', 'Hello {{client.name}}, thanks!'),
    });
    expect(answer.status).toBe(422);
    expect(answer.body.code).toBe('unknown_placeholder');
    expect(answer.body.details.issues).toEqual([
      expect.objectContaining({ path: '/action/body', unknown: ['{{client.name}}'] }),
    ]);
    expect(answer.body.message).toContain(
      '{{client.name}} is not a placeholder. Use one of: {{client_name}}',
    );
    expect(answer.body.details.placeholders).toContain('{{client_email}}');
    const listed = await owner.call('GET', '/workspace/v1/automation-rules');
    expect(listed.body.data).toEqual([]);
  });

  it('an edit to an unknown placeholder is refused too', async () => {
    const created = await owner.call('POST', '/workspace/v1/automation-rules', {
      name: 'Ok',
      trigger: 'onboarding.completed',
      action: email('Hi {{ client_name }}', 'Done: {{progress_pct}}%'),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const edited = await owner.call('PATCH', `/workspace/v1/automation-rules/${created.body.rule.id}`, {
      action: email('Hi {{Client}}', 'x'),
    });
    expect([edited.status, edited.body.details.issues[0].path]).toEqual([422, '/action/subject']);
  });

  it('the preview renders the sample onboarding with the code of real runs', async () => {
    const answer = await owner.call('POST', '/workspace/v1/automation-rules/preview', {
      trigger: 'onboarding.completed',
      action: email(
        'Welcome {{client_name}}\nof {{company}}',
        '{{team_name}}: {{progress_pct}}% of {{template_name}}',
      ),
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.preview).toEqual({
      kind: 'email',
      to: 'alex.sample@example.com',
      from_name: 'Trusty',
      subject: 'Welcome Alex Sample of Sample & Co',
      text: 'Trusty: 100% of Sample onboarding',
    });
  });

  it('Send a test of an email goes to the signed-in member, never to a client', async () => {
    const answer = await owner.call('POST', '/workspace/v1/automation-rules/test', {
      trigger: 'onboarding.completed',
      action: email('Welcome {{client_name}}', 'Hello {{client_name}}'),
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.sent).toEqual({ kind: 'email', to: 'trust-owner@example.com' });
    await drain(service);
    const mail = smtp.messages.find((message) => message.subject === '[Test] Welcome Alex Sample');
    expect(mail?.envelope.to).toEqual(['trust-owner@example.com']);
    expect(mail?.text).toContain('Hello Alex Sample');
    expect(smtp.messages.some((message) => message.envelope.to.includes('alex.sample@example.com'))).toBe(
      false,
    );
  });

  it('Send a test of a webhook reaches the HTTPS receiver, marked as a test, and answers its status', async () => {
    receiver.respondWith({ status: 204 });
    const answer = await owner.call('POST', '/workspace/v1/automation-rules/test', {
      trigger: 'onboarding.completed',
      action: { type: 'send_webhook', url: `${receiver.url}/hooks/test` },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.sent).toMatchObject({ kind: 'webhook', status: 204, outcome: 'HTTP 204' });
    const received = receiver.requests.at(-1)!;
    expect(received.path).toBe('/hooks/test');
    expect(received.headers['x-service-test']).toBe('true');
    expect(received.headers['idempotency-key']).toBe(received.json().id);
    expect(received.json()).toMatchObject({
      event: 'onboarding.completed',
      data: { client_name: 'Alex Sample' },
    });
  });

  it('60 test sends at once: only the limit of 10 an hour passes, the rest are 429 in words', async () => {
    const action = { type: 'send_webhook', url: `${receiver.url}/burst` };
    const before = receiver.requests.length;
    const answers = await Promise.all(
      Array.from({ length: 60 }, () =>
        owner.call('POST', '/workspace/v1/automation-rules/test', {
          trigger: 'onboarding.completed',
          action,
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    // Two test sends of this hour came before (email, webhook).
    expect(statuses.filter((status) => status === 200)).toHaveLength(8);
    expect(statuses.filter((status) => status === 429)).toHaveLength(52);
    const refused = answers.find((answer) => answer.status === 429)!;
    expect(refused.body.message).toMatch(/You have sent 10 tests this hour: try again in \d+ minutes?\./);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(receiver.requests.length - before).toBe(8);
  });
});
