import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import {
  adminRequest,
  apiRequest,
  createApiKey,
  createGalleryTemplate,
  createTeamWithKey,
  createTemplate,
  deleteTemplate,
  type TeamWithKey,
  type Template,
} from '../../helpers/tenant.ts';

/** GET /api/v1/templates and GET /api/v1/templates/:id over real HTTP and PostgreSQL. */

let service: TestService;
let team: TeamWithKey;
let other: TeamWithKey;
const own: Template[] = [];
let deleted: Template;
let gallery: Template;
let theirs: Template;

const list = (query = '', key = team.apiKey) => apiRequest(service, key, 'GET', `/templates${query}`);
const get = (id: string, key = team.apiKey) => apiRequest(service, key, 'GET', `/templates/${id}`);

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  team = await createTeamWithKey(service, { scopes: ['templates:read'] });
  other = await createTeamWithKey(service, { scopes: ['templates:read'] });
  for (const name of ['Alpha', 'Beta', 'Gamma']) {
    service.clock.advance(60);
    own.push(
      await createTemplate(service, team.teamId, { name, vertical: name === 'Beta' ? null : 'legal' }),
    );
  }
  service.clock.advance(60);
  deleted = await createTemplate(service, team.teamId, { name: 'Deleted' });
  await deleteTemplate(service, team.teamId, deleted.id);
  gallery = await createGalleryTemplate(service, { name: 'Gallery' });
  theirs = await createTemplate(service, other.teamId, { name: 'Theirs' });
});

afterAll(async () => {
  await service?.stop();
});

describe('GET /api/v1/templates', () => {
  it("lists the team's own templates newest first, with total, page and limit (defaults 1 and 50)", async () => {
    const answer = await list();
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      templates: [...own].reverse().map((template) => ({
        id: template.id,
        name: template.name,
        vertical: template.vertical,
        created_at: template.created_at,
      })),
      total: 3,
      page: 1,
      limit: 50,
    });
  });

  it("never lists gallery, deleted or other teams' templates", async () => {
    const ids = (await list()).body.templates.map((template: { id: string }) => template.id);
    expect(ids).not.toContain(gallery.id);
    expect(ids).not.toContain(deleted.id);
    expect(ids).not.toContain(theirs.id);
    const theirList = await list('', other.apiKey);
    expect(theirList.body.templates.map((template: { id: string }) => template.id)).toEqual([theirs.id]);
  });

  it('pages with page and limit', async () => {
    const second = await list('?page=2&limit=2');
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(second.body.templates.map((template: { name: string }) => template.name)).toEqual(['Alpha']);
    const beyond = await list('?page=9&limit=2');
    expect(beyond.body).toEqual({ templates: [], total: 3, page: 9, limit: 2 });
  });

  it.each([
    ['limit=0', 'limit must be between 1 and 100'],
    ['limit=101', 'limit must be between 1 and 100'],
    ['page=0', 'page must be a whole number of 1 or more'],
    ['page=x', 'page must be a whole number of 1 or more'],
  ])('400 for %s', async (query, message) => {
    const answer = await list(`?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: message });
  });

  it('403 api_key_scope_denied without templates:read', async () => {
    const key = await createApiKey(service, team.teamId, ['clients:read']);
    const answer = await list('', key.apiKey);
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe('api_key_scope_denied');
  });
});

describe('GET /api/v1/templates/:id', () => {
  it('answers the template with template_steps and template_fields in the order built, not sorted', async () => {
    const built = await createTemplate(service, team.teamId, {
      name: 'Unsorted',
      vertical: 'tax',
      steps: [
        {
          title: 'Second',
          sort_order: 2,
          is_optional: true,
          conditional_rules: { show_if: 'x' },
          fields: [
            { type: 'short_text', label: 'B', sort_order: 2, is_required: true, config: { max: 10 } },
            { type: 'short_text', label: 'A', sort_order: 1 },
          ],
        },
        { title: 'First', sort_order: 1, fields: [] },
      ],
    });
    const answer = await get(built.id);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ template: built });
    const template = answer.body.template;
    expect(template).toMatchObject({ id: built.id, name: 'Unsorted', vertical: 'tax' });
    expect(template.template_steps.map((step: { title: string }) => step.title)).toEqual(['Second', 'First']);
    expect(template.template_steps[0]).toEqual({
      id: expect.any(String),
      title: 'Second',
      sort_order: 2,
      is_optional: true,
      conditional_rules: { show_if: 'x' },
      template_fields: [
        {
          id: expect.any(String),
          type: 'short_text',
          label: 'B',
          is_required: true,
          sort_order: 2,
          config: { max: 10 },
          conditional_rules: null,
        },
        {
          id: expect.any(String),
          type: 'short_text',
          label: 'A',
          is_required: false,
          sort_order: 1,
          config: {},
          conditional_rules: null,
        },
      ],
    });
    expect(template.template_steps[1]).toMatchObject({
      conditional_rules: null,
      is_optional: false,
      template_fields: [],
    });
  });

  it("404 Template not found for unknown, non-UUID, gallery, deleted and another team's templates alike", async () => {
    const answers = await Promise.all([
      get('00000000-0000-4000-8000-000000000000'),
      get('nope'),
      get(gallery.id),
      get(deleted.id),
      get(theirs.id),
      get(own[0]!.id, other.apiKey),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: 'Template not found' });
    }
  });
});

describe('POST /admin/v1/teams/:team_id/templates and /admin/v1/gallery-templates keep the field catalogue', () => {
  const post = (path: string, fields: unknown[], steps: unknown[] = []) =>
    adminRequest(service, 'POST', path, {
      name: 'Checked',
      steps: [...steps, { title: 'Fields', sort_order: 9, fields }],
    });
  const paths = () => [`/teams/${team.teamId}/templates`, '/gallery-templates'];
  const earlierStep = { title: 'First', sort_order: 1, fields: [] };

  it('400 invalid_body naming the step and field of a type outside the catalogue', async () => {
    for (const path of paths()) {
      const answer = await post(
        path,
        [
          { type: 'short_text', label: 'Name', sort_order: 1 },
          { type: 'text', label: 'Old text', sort_order: 2 },
        ],
        [earlierStep],
      );
      expect(answer.status, path).toBe(400);
      expect(answer.body).toMatchObject({
        code: 'invalid_body',
        error: expect.stringMatching(/^steps\[1\]\.fields\[1\]: type "text" is not a field type/),
        // The operator API merges a refusal's details into the body.
        field_problems: [{ path: 'steps[1].fields[1]', message: expect.any(String) }],
      });
    }
  });

  it('400 invalid_body naming the field whose config its type does not take; every problem in details', async () => {
    for (const path of paths()) {
      const answer = await post(path, [
        { type: 'short_text', label: 'Name', sort_order: 1 },
        { type: 'email', label: 'Email', sort_order: 2 },
        { type: 'single_choice', label: 'Plan', sort_order: 3, config: { options: [] } },
        {
          type: 'file_upload',
          label: 'Passport',
          sort_order: 4,
          config: { accept: ['application/x-msdownload'] },
        },
      ]);
      expect(answer.status, path).toBe(400);
      expect(answer.body.code).toBe('invalid_body');
      expect(answer.body.error).toBe('steps[0].fields[2]: config.options needs at least one option');
      expect(answer.body.field_problems.map((problem: { path: string }) => problem.path)).toEqual([
        'steps[0].fields[2]',
        'steps[0].fields[3]',
      ]);
    }
  });

  it('creates a template whose fields all keep the catalogue', async () => {
    for (const path of paths()) {
      const answer = await post(path, [
        { type: 'heading', label: 'Welcome', sort_order: 1, config: { text: 'Hello' } },
        { type: 'dropdown', label: 'Plan', sort_order: 2, config: { options: ['basic', 'pro'] } },
        {
          type: 'file_upload',
          label: 'Passport',
          sort_order: 3,
          config: { accept: ['application/pdf'], max_files: 2 },
        },
        { type: 'payment', label: 'Fee', sort_order: 4, config: { amount_cents: 5000, currency: 'USD' } },
      ]);
      expect(answer.status, path).toBe(201);
    }
  });
});
