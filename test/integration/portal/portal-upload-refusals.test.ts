import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { createTenant, portal, sentOnboarding, type Tenant } from '../portal-fixtures.ts';

/*
 * Uploads refuse in words what they used to pass or drop (issue 26, finding 9): a file of
 * zero bytes, and a second file in one request. Real multipart over HTTP; nothing is
 * stored (no event, no row) and the field can still take a proper file afterwards.
 */

let service: TestService;
let tenant: Tenant;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  tenant = await createTenant(service);
}, 60_000);

afterAll(async () => {
  await service?.stop();
});

const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n');

async function upload(token: string, files: Array<{ name: string; content: Buffer }>, extra = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(extra)) form.append(name, String(value));
  for (const file of files) {
    form.append(
      'file',
      new Blob([typeof file.content === 'string' ? file.content : new Uint8Array(file.content)], {
        type: 'application/pdf',
      }),
      file.name,
    );
  }
  const response = await fetch(
    `${service.url}/portal/v1/onboardings/${token}/fields/${tenant.ids.fields.idDocument}/files`,
    { method: 'POST', body: form },
  );
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

async function stored(onboardingId: string) {
  const events = await service.context.eventStore.readStream(`onboarding-${onboardingId}`);
  const rows = await service.database.pool.query(
    'select count(*)::int as n from onboarding_files where onboarding_id = $1',
    [onboardingId],
  );
  return { uploads: events.filter((event) => event.type === 'file.uploaded').length, rows: rows.rows[0].n };
}

describe('portal uploads', () => {
  it('refuse a zero-byte file in words and store nothing', async () => {
    const { onboardingId, token } = await sentOnboarding(service, tenant);
    const before = await stored(onboardingId);
    const empty = await upload(token, [{ name: 'empty.pdf', content: Buffer.alloc(0) }]);
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({
      code: 'invalid_body',
      error: 'The file is empty (0 bytes): choose a file that has content',
      details: { problem: { code: 'empty_file' } },
    });
    expect(await stored(onboardingId)).toEqual(before);
    const proper = await upload(token, [{ name: 'scan.pdf', content: PDF }]);
    expect(proper.status).toBe(201);
    expect(await stored(onboardingId)).toEqual({ uploads: before.uploads + 1, rows: before.rows + 1 });
  });

  it('refuse a second file in one request in words (neither is kept)', async () => {
    const { onboardingId, token } = await sentOnboarding(service, tenant);
    const before = await stored(onboardingId);
    const two = await upload(token, [
      { name: 'first.pdf', content: PDF },
      { name: 'second.pdf', content: PDF },
    ]);
    expect(two.status).toBe(400);
    expect(two.body).toMatchObject({
      code: 'invalid_body',
      error: 'Send one file per request: this upload holds more than one file, and none was kept',
      details: { problem: { code: 'one_file_per_request' } },
    });
    expect(await stored(onboardingId)).toEqual(before);
    // Plain form fields beside one file are fine.
    const withField = await upload(token, [{ name: 'scan.pdf', content: PDF }], { note: 'hello' });
    expect(withField.status).toBe(201);
    const files = await portal(service, token, 'GET');
    expect(files.status).toBe(200);
    expect(await stored(onboardingId)).toEqual({ uploads: before.uploads + 1, rows: before.rows + 1 });
  });

  it('a burst of two-file uploads stores nothing', async () => {
    const { onboardingId, token } = await sentOnboarding(service, tenant);
    const before = await stored(onboardingId);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        upload(token, [
          { name: 'a.pdf', content: PDF },
          { name: 'b.pdf', content: PDF },
        ]),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(400));
    expect(await stored(onboardingId)).toEqual(before);
  });
});
