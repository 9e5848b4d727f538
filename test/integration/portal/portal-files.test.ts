import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import {
  apiRequest,
  createTeamWithKey,
  createTemplate,
  request,
  type TemplateInput,
} from '../../helpers/tenant.ts';
import { portal, sentOnboarding, uploadFile, type Tenant } from '../portal-fixtures.ts';

/**
 * Files on the client portal over real HTTP and PostgreSQL: the content type is read from
 * the bytes, the field's accepted types, number of files and size hold, and the client
 * removes a file (DELETE files/:file_id) until its step is submitted.
 */

let service: TestService;
let tenant: Tenant;

/**
 * Documents (required): Passport (PDF or PNG, at most 2 files of 0.1 MiB); Anything (text or
 * PDF); Contract (PDF only).
 */
const filesTemplate = (): TemplateInput => ({
  name: 'Files pack',
  steps: [
    {
      title: 'Documents',
      sort_order: 1,
      fields: [
        {
          type: 'file_upload',
          label: 'Passport',
          sort_order: 1,
          is_required: true,
          config: { accept: ['application/pdf', 'image/png'], max_files: 2, max_size_mb: 0.1 },
        },
        {
          type: 'file_upload',
          label: 'Anything',
          sort_order: 2,
          is_required: false,
          config: { accept: ['text/plain', 'application/pdf'] },
        },
        {
          type: 'file_upload',
          label: 'Contract',
          sort_order: 3,
          is_required: false,
          config: { accept: ['application/pdf'] },
        },
      ],
    },
  ],
});

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a1d6a0e50000000049454e44ae426082',
  'hex',
);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n');

let passport: string;
let anything: string;
let contract: string;
let documents: string;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  const team = await createTeamWithKey(service);
  const template = await createTemplate(service, team.teamId, filesTemplate());
  // The shared form's field ids do not apply to this template.
  tenant = { ...team, template, ids: {} as Tenant['ids'] };
  const step = tenant.template.template_steps[0]!;
  documents = step.id;
  passport = step.template_fields.find((field) => field.label === 'Passport')!.id;
  anything = step.template_fields.find((field) => field.label === 'Anything')!.id;
  contract = step.template_fields.find((field) => field.label === 'Contract')!.id;
});

afterAll(async () => {
  await service?.stop();
});

async function streamTypes(onboardingId: string) {
  const events = await service.context.eventStore.readStream(`onboarding-${onboardingId}`);
  return events.map((event) => event.type);
}

const removeFile = (token: string, fileId: string) => portal(service, token, 'DELETE', `/files/${fileId}`);

async function uploaded(token: string, fieldId: string, content: Buffer, name = 'scan.pdf') {
  const answer = await uploadFile(service, token, fieldId, { name, content });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.file as { id: string; content_type: string };
}

describe('upload: the content type comes from the bytes', () => {
  it('the browser’s type is ignored: a PNG sent as application/pdf is image/png', async () => {
    const { token } = await sentOnboarding(service, tenant);
    const answer = await uploadFile(service, token, passport, {
      name: 'passport.pdf',
      type: 'application/pdf',
      content: PNG,
    });
    expect(answer.status).toBe(201);
    expect(answer.body.file.content_type).toBe('image/png');
    const stored = await service.database.pool.query(
      'select content_type from onboarding_files where id = $1',
      [answer.body.file.id],
    );
    expect(stored.rows[0].content_type).toBe('image/png');
  });

  it('text without magic bytes is text/plain when valid UTF-8 without NUL, else application/octet-stream', async () => {
    const { token } = await sentOnboarding(service, tenant);
    const text = await uploaded(token, anything, Buffer.from('name;città\nMary;Zürich\n'), 'a.csv');
    expect(text.content_type).toBe('text/plain');
    // No type of its own: refused as application/octet-stream, whatever the browser says.
    for (const content of [Buffer.from([0x41, 0x00, 0x42]), Buffer.from('caf\xe9 au lait', 'latin1')]) {
      const refused = await uploadFile(service, token, anything, {
        name: 'b.txt',
        type: 'text/plain',
        content,
      });
      expect(refused.status).toBe(400);
      expect(refused.body.details.problem).toEqual({
        code: 'file_type_not_accepted',
        params: { content_type: 'application/octet-stream', accept: 'text/plain, application/pdf' },
      });
    }
  });

  it('400 file_type_not_accepted for a type outside the field’s accept list, even labelled as accepted; nothing recorded', async () => {
    const { onboardingId, token } = await sentOnboarding(service, tenant);
    await portal(service, token, 'GET');
    const before = await streamTypes(onboardingId);
    const answer = await uploadFile(service, token, passport, {
      name: 'passport.pdf',
      type: 'application/pdf',
      content: Buffer.from('just some text'),
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      code: 'invalid_body',
      details: {
        field_id: passport,
        step_id: documents,
        problem: {
          code: 'file_type_not_accepted',
          params: expect.objectContaining({ content_type: 'text/plain' }),
        },
      },
    });
    expect(await streamTypes(onboardingId)).toEqual(before);
    const rows = await service.database.pool.query(
      'select 1 from onboarding_files where onboarding_id = $1',
      [onboardingId],
    );
    expect(rows.rowCount).toBe(0);
  });

  it('400 too_many_files past the field’s max_files; 413 payload_too_large past its max_size_bytes', async () => {
    const { onboardingId, token } = await sentOnboarding(service, tenant);
    await uploaded(token, passport, PDF);
    await uploaded(token, passport, PNG, 'photo.png');
    const third = await uploadFile(service, token, passport, { name: 'third.pdf', content: PDF });
    expect(third.status).toBe(400);
    expect(third.body).toMatchObject({
      code: 'invalid_body',
      details: {
        field_id: passport,
        step_id: documents,
        problem: { code: 'too_many_files', params: { max_files: 2 } },
      },
    });
    const before = await streamTypes(onboardingId);
    const big = await uploadFile(service, token, anything, {
      name: 'ok.bin',
      content: Buffer.alloc(1025, 1),
    });
    expect(big.status).toBe(201);
    const { token: other } = await sentOnboarding(service, tenant);
    const tooBig = await uploadFile(service, other, passport, {
      name: 'big.pdf',
      content: Buffer.concat([PDF, Buffer.alloc(Math.round(0.1 * 1024 * 1024))]),
    });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.code).toBe('payload_too_large');
    expect((await streamTypes(onboardingId)).length).toBe(before.length + 1);
  });
});

describe('DELETE /portal/v1/onboardings/:token/files/:file_id', () => {
  it('200 {success: true}: the row goes, file_removed is recorded but never published, a slot frees up', async () => {
    const { onboardingId, token } = await sentOnboarding(service, tenant);
    const first = await uploaded(token, passport, PDF);
    await uploaded(token, passport, PNG, 'photo.png');

    const removed = await removeFile(token, first.id);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ success: true });
    const rows = await service.database.pool.query(
      'select id from onboarding_files where onboarding_id = $1',
      [onboardingId],
    );
    expect(rows.rows.map((row) => row.id)).not.toContain(first.id);
    expect(rows.rowCount).toBe(1);
    expect(await streamTypes(onboardingId)).toContain('file_removed');

    // Not an audit or public event: the feed of the team never shows it.
    const feed = await apiRequest(service, tenant.apiKey, 'GET', '/events?limit=100');
    expect(feed.status).toBe(200);
    const types = (feed.body.events as { type: string }[]).map((event) => event.type);
    expect(types).toContain('file.uploaded');
    expect(types.some((type) => type.includes('removed') && type.includes('file'))).toBe(false);

    // The freed slot takes a new file; removing the same file again is 404.
    await uploaded(token, passport, PDF, 'again.pdf');
    const again = await removeFile(token, first.id);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('file_not_found');
  });

  it('a required file field is answered while it holds a file: removing the last one makes submit refuse', async () => {
    const { token } = await sentOnboarding(service, tenant);
    const one = await uploaded(token, passport, PDF);
    const two = await uploaded(token, passport, PNG, 'photo.png');
    expect((await removeFile(token, one.id)).status).toBe(200);
    // The field's response showed the latest file; it stays while that file does.
    const responseOf = async () =>
      (await portal(service, token, 'GET')).body.onboarding.responses.find(
        (response: { field_id: string }) => response.field_id === passport,
      );
    expect((await responseOf())?.value).toMatchObject({ file_id: two.id });
    expect((await removeFile(token, two.id)).status).toBe(200);
    expect(await responseOf()).toBeUndefined();
    const refused = await portal(service, token, 'POST', `/steps/${documents}/submit`);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'invalid_body',
      message: 'Required field "Passport" has no answer',
      details: { field_id: passport, step_id: documents },
    });
    await uploaded(token, passport, PDF);
    const submitted = await portal(service, token, 'POST', `/steps/${documents}/submit`);
    expect(submitted.status).toBe(200);
    expect(submitted.body.onboarding.status).toBe('completed');
  });

  it('409 invalid_state once the file’s step is submitted or the onboarding is not being answered', async () => {
    const { token } = await sentOnboarding(service, tenant);
    const file = await uploaded(token, passport, PDF);
    expect((await portal(service, token, 'POST', `/steps/${documents}/submit`)).status).toBe(200);
    const afterSubmit = await removeFile(token, file.id);
    expect(afterSubmit.status).toBe(409);
    expect(afterSubmit.body.code).toBe('invalid_state');
  });

  it('404 file_not_found for an unknown file or another onboarding’s file; 404 link_inactive for a bad token', async () => {
    const { token } = await sentOnboarding(service, tenant);
    const { token: otherToken } = await sentOnboarding(service, tenant);
    const others = await uploaded(otherToken, passport, PDF);
    await portal(service, token, 'GET');
    for (const fileId of [others.id, '00000000-0000-4000-8000-000000000000', 'constructor', '__proto__']) {
      const answer = await removeFile(token, fileId);
      expect(answer.status, fileId).toBe(404);
      expect(answer.body.code).toBe('file_not_found');
    }
    const stillThere = await service.database.pool.query('select 1 from onboarding_files where id = $1', [
      others.id,
    ]);
    expect(stillThere.rowCount).toBe(1);
    const badToken = await removeFile('0'.repeat(64), others.id);
    expect(badToken.status).toBe(404);
    expect(badToken.body.code).toBe('link_inactive');
  });

  it('is in the OpenAPI document', async () => {
    const document = (await request(service, 'GET', '/openapi.json')).body;
    const operation = document.paths['/portal/v1/onboardings/{token}/files/{file_id}']?.delete;
    expect(operation).toBeDefined();
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '404', '409']));
  });
});

describe('file names and downloads', () => {
  const download = (token: string, fileId: string) =>
    fetch(`${service.url}/portal/v1/onboardings/${token}/files/${fileId}`);

  it('a name with a right-to-left override is stored and listed without it', async () => {
    const { token } = await sentOnboarding(service, tenant);
    const answer = await uploadFile(service, token, contract, { name: 'invoice\u202Efdp.exe', content: PDF });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.file.file_name).toBe('invoicefdp.exe');
    const listed = await portal(service, token, 'GET');
    expect(listed.body.onboarding.files).toEqual([
      expect.objectContaining({ id: answer.body.file.id, file_name: 'invoicefdp.exe' }),
    ]);
  });

  it('400 file_type_not_accepted for a PNG named .pdf on a PDF-only field', async () => {
    const { onboardingId, token } = await sentOnboarding(service, tenant);
    const answer = await uploadFile(service, token, contract, {
      name: 'contract.pdf',
      type: 'application/pdf',
      content: PNG,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      error: 'Files of type image/png are not accepted here',
      code: 'invalid_body',
      details: {
        field_id: contract,
        step_id: documents,
        problem: {
          code: 'file_type_not_accepted',
          params: { content_type: 'image/png', accept: 'application/pdf' },
        },
      },
    });
    const rows = await service.database.pool.query(
      'select 1 from onboarding_files where onboarding_id = $1',
      [onboardingId],
    );
    expect(rows.rowCount).toBe(0);
  });

  it('GET files/:file_id serves the bytes as an attachment named in UTF-8, with nosniff', async () => {
    const { token } = await sentOnboarding(service, tenant);
    const file = await uploaded(token, passport, PNG, 'Reisepass Übersicht (1).png');
    const response = await download(token, file.id);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="Reisepass _bersicht (1).png"; filename*=UTF-8''Reisepass%20%C3%9Cbersicht%20%281%29.png`,
    );
    expect(Buffer.from(await response.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('404 file_not_found for another onboarding’s or an unknown file; 404 link_inactive for a bad token', async () => {
    const { token } = await sentOnboarding(service, tenant);
    const { token: otherToken } = await sentOnboarding(service, tenant);
    const others = await uploaded(otherToken, passport, PDF);
    for (const fileId of [others.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const answer = await portal(service, token, 'GET', `/files/${fileId}`);
      expect(answer.status, fileId).toBe(404);
      expect(answer.body).toMatchObject({ code: 'file_not_found', error: 'File not found' });
    }
    const badToken = await portal(service, '0'.repeat(64), 'GET', `/files/${others.id}`);
    expect(badToken.status).toBe(404);
    expect(badToken.body.code).toBe('link_inactive');
  });

  it('the download is in the OpenAPI document', async () => {
    const document = (await request(service, 'GET', '/openapi.json')).body;
    const operation = document.paths['/portal/v1/onboardings/{token}/files/{file_id}']?.get;
    expect(operation).toBeDefined();
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '401', '404', '429']));
    expect(operation.responses['200'].content).toMatchObject({
      '*/*': { schema: { type: 'string', format: 'binary' } },
    });
  });
});
