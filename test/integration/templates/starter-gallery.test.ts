import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localizeField, translationFor } from '../../../services/templates/contract/field-catalogue.ts';
import { STARTERS } from '../../../services/templates/starters/index.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { apiRequest, createApiKey, updateTeam } from '../../helpers/tenant.ts';
import { createClient, operatorLink, portal } from '../portal-fixtures.ts';
import { Browser, signUp } from '../workspace-fixtures.ts';

/*
 * The built-in starter gallery over real HTTP and PostgreSQL: a brand-new team sees the six
 * starters in its language (the member's own choice first), "Use this template" makes a
 * team template in the team's language with the other eight as translations, and an
 * onboarding sent from it reads in Japanese for a ja-JP client through the portal API.
 */

let service: TestService;
let owner: Browser;
let teamId: string;

const accountant = STARTERS.find((starter) => starter.id.endsWith('0001'))!;
const lawyer = STARTERS.find((starter) => starter.id.endsWith('0002'))!;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  ({ owner, teamId } = await signUp(service, 'starter-owner@example.com', 'a long starter passphrase'));
}, 90_000);

afterAll(async () => {
  await service?.stop();
});

const gallery = async () => {
  const answer = await owner.call('GET', '/workspace/v1/gallery-templates');
  expect(answer.status).toBe(200);
  return answer.body.data as Array<{ id: string; name: string; description: string; vertical: string }>;
};

describe('the starter gallery of a new team', () => {
  it('lists the six starters in the team language, or the member language once chosen', async () => {
    const english = await gallery();
    expect(english.slice(0, 6).map((item) => item.id)).toEqual(STARTERS.map((starter) => starter.id));
    expect(english[0]).toMatchObject({
      name: accountant.name['en-US'],
      description: accountant.description['en-US'],
      vertical: accountant.vertical['en-US'],
      sample_agreement_text: false,
    });
    expect(english[1]).toMatchObject({ name: lawyer.name['en-US'], sample_agreement_text: true });

    await updateTeam(service, teamId, { locale: 'de-DE' });
    expect((await gallery())[0]!.name).toBe(accountant.name['de-DE']);

    expect((await owner.call('PUT', '/workspace/v1/me/locale', { locale: 'fr-FR' })).status).toBe(200);
    const french = await gallery();
    expect(french.slice(0, 6).map((item) => item.name)).toEqual(
      STARTERS.map((starter) => starter.name['fr-FR']),
    );
    expect((await owner.call('PUT', '/workspace/v1/me/locale', { locale: null })).status).toBe(200);
  });

  it('Use this template copies a starter in the team language, with translations, marked where it holds sample text', async () => {
    const copy = await owner.call('POST', `/workspace/v1/gallery-templates/${accountant.id}/copy`);
    expect(copy.status).toBe(201);
    const template = copy.body.template;
    expect(template.name).toBe(accountant.name['de-DE']);
    expect(template.id).not.toBe(accountant.id);
    expect(Object.keys(template.translations).sort()).toEqual(
      ['en-US', 'en-GB', 'fr-FR', 'es-ES', 'it-IT', 'nl-NL', 'pt-BR', 'ja-JP'].sort(),
    );
    expect(template.send_blockers).toEqual([]);
    // It opens like any team template, and the team's list holds it.
    expect((await owner.call('GET', `/workspace/v1/templates/${template.id}`)).status).toBe(200);

    const signed = await owner.call('POST', `/workspace/v1/gallery-templates/${lawyer.id}/copy`);
    expect(signed.status).toBe(201);
    expect(signed.body.template.send_blockers).toHaveLength(1);
  });

  it('an onboarding sent from a starter copy reads in Japanese for a ja-JP client (portal API)', async () => {
    await updateTeam(service, teamId, { plan: 'pro', locale: 'en-US' });
    const copy = await owner.call('POST', `/workspace/v1/gallery-templates/${accountant.id}/copy`);
    expect(copy.status).toBe(201);
    const { apiKey } = await createApiKey(service, teamId);
    const client = await createClient(service, { apiKey } as never, { locale: 'ja-JP' });
    const created = await apiRequest(service, apiKey, 'POST', '/onboardings', {
      body: { template_id: copy.body.template.id, client_id: client.id },
    });
    expect(created.status).toBe(201);
    const id = created.body.onboarding.id as string;
    expect((await apiRequest(service, apiKey, 'POST', `/onboardings/${id}/send`, { body: {} })).status).toBe(
      200,
    );
    const token = (await operatorLink(service, id)).body.token!;

    const opened = await portal(service, token, 'GET');
    expect(opened.status).toBe(200);
    const locale = opened.body.client.locale as string;
    expect(locale).toBe('ja-JP');
    const snapshot = opened.body.onboarding.template_snapshot;
    expect(translationFor(snapshot.translations, locale)['name']).toBe(accountant.name['ja-JP']);
    type Field = Parameters<typeof localizeField>[0] & { sort_order: number };
    const steps = snapshot.steps as Array<{ translations: unknown; fields: Field[] }>;
    expect(steps.map((step) => translationFor(step.translations, locale)['title'])).toEqual(
      accountant.steps.map((step) => step.title['ja-JP']),
    );
    const labels = steps.flatMap((step) =>
      [...step.fields]
        .sort((a, b) => a.sort_order - b.sort_order)
        .map((field) => localizeField(field, locale).label),
    );
    expect(labels).toEqual(
      accountant.steps.flatMap((step) => step.fields.map((field) => field.label['ja-JP'])),
    );
    expect(labels).toContain('メールアドレス');
  });
});
