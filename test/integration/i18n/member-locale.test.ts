import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { addMember, signUp, type Browser } from '../workspace-fixtures.ts';

/*
 * Each member's language over real HTTP and PostgreSQL: GET /workspace/v1/me answers the
 * team's language and the member's own choice (null until one is made); PUT /me/locale takes
 * one of the nine languages or null (the team's again), refuses anything else in words and
 * changes nothing then; one member's choice is theirs alone, it survives signing in again,
 * and it is a fact of the team's stream (team.member_locale_chosen, once per change).
 */

let service: TestService;
let owner: Browser;
let member: Browser;
let teamId: string;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  const team = await signUp(service, 'locale-owner@example.com', 'a long locale passphrase');
  ({ owner, teamId } = team);
  ({ browser: member } = await addMember(service, owner, 'locale-member@example.com', 'member'));
}, 60_000);
afterAll(async () => {
  await service?.stop();
});

const me = async (who: Browser) => (await who.call('GET', '/workspace/v1/me')).body;

describe("a member's language", () => {
  it("reads the team's language until the member chooses one of the nine", async () => {
    const before = await me(member);
    expect(before.team.locale).toBe('en-US');
    expect(before.member.locale).toBeNull();

    const chosen = await member.call('PUT', '/workspace/v1/me/locale', { locale: 'de-DE' });
    expect(chosen.status).toBe(200);
    expect(chosen.body).toEqual({ locale: 'de-DE' });
    expect((await me(member)).member.locale).toBe('de-DE');
    // Another member keeps the team's language.
    expect((await me(owner)).member.locale).toBeNull();

    // Signing in again answers the choice with the session.
    const again = await member.copy().call('POST', '/workspace/v1/sessions', {
      email: 'locale-member@example.com',
      password: 'a member long passphrase',
    });
    expect(again.status).toBe(200);
    expect(again.body.member.locale).toBe('de-DE');
  });

  it('refuses a language that is not one of the nine and changes nothing', async () => {
    for (const locale of ['de-AT', 'klingon', '', 42]) {
      const refused = await member.call('PUT', '/workspace/v1/me/locale', { locale });
      expect(refused.status, String(locale)).toBe(400);
    }
    expect((await me(member)).member.locale).toBe('de-DE');
  });

  it("goes back to the team's language with null, and records one fact per change", async () => {
    expect((await member.call('PUT', '/workspace/v1/me/locale', { locale: null })).status).toBe(200);
    // The same choice twice is no change: no second fact.
    expect((await member.call('PUT', '/workspace/v1/me/locale', { locale: null })).status).toBe(200);
    expect((await me(member)).member.locale).toBeNull();
    const events = await service.context.eventStore.readStream(`team-${teamId}`);
    const chosen = events.filter((event) => event.type === 'team.member_locale_chosen');
    expect(chosen.map((event) => (event.data as { locale: string | null }).locale)).toEqual(['de-DE', null]);
  });
});
