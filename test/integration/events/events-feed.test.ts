import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_EVENT_TYPES, PUBLIC_EVENT_TYPES } from '../../../services/events/audit-event-types.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import {
  apiRequest,
  createApiKey,
  createGalleryTemplate,
  createTeamWithKey,
  createTemplate,
  revokeApiKey,
  type TeamWithKey,
} from '../../helpers/tenant.ts';

/** GET /api/v1/events (the audit events feed) over real HTTP and PostgreSQL. */

let service: TestService;
let team: TeamWithKey;
let other: TeamWithKey;

const UNKNOWN =
  'Unknown event type. Allowed values: onboarding.completed, onboarding.sent, onboarding.started, onboarding.overdue, response.submitted, signature.signed, payment.succeeded, file.uploaded';

const feed = (query = '', key = team.apiKey) => apiRequest(service, key, 'GET', `/events${query}`);

async function domainEventId(type: string, field: string, value: string): Promise<string> {
  const result = await service.database.pool.query(
    'select event_id from events where type = $1 and data->>$2 = $3',
    [type, field, value],
  );
  return result.rows[0].event_id;
}

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off', HOOK_TARGET_ALLOWLIST: 'localhost' });
  team = await createTeamWithKey(service);
  other = await createTeamWithKey(service);
});

afterAll(async () => {
  await service?.stop();
});

describe('GET /api/v1/events', () => {
  it("records the team's domain events under internal names, newest first, with id, type, timestamp, onboarding_id and data", async () => {
    const feedTeam = await createTeamWithKey(service);
    service.clock.advance(60);
    const client = await apiRequest(service, feedTeam.apiKey, 'POST', '/clients', {
      body: { name: 'Ada', email: 'ada@example.com' },
    });
    service.clock.advance(60);
    const subscription = await apiRequest(service, feedTeam.apiKey, 'POST', '/automation/subscribe', {
      body: {
        event: 'onboarding.completed',
        target_url: 'https://localhost:9443/hooks/secret-path?token=s3cr3t',
      },
    });
    service.clock.advance(60);
    await apiRequest(service, feedTeam.apiKey, 'DELETE', '/automation/subscribe', {
      body: { id: subscription.body.id },
    });

    const answer = await feed('', feedTeam.apiKey);
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body)).toEqual(['events']);
    expect(answer.body.events.map((event: { type: string }) => event.type)).toEqual([
      'hook_subscription_deleted',
      'hook_subscription_created',
      'client_created',
      'api_key_created',
      'team_created',
    ]);
    const [deleted, created, clientCreated] = answer.body.events;
    expect(clientCreated).toEqual({
      id: await domainEventId('client.created', 'client_id', client.body.client.id),
      type: 'client_created',
      timestamp: client.body.client.created_at,
      onboarding_id: null,
      data: { client_id: client.body.client.id },
    });
    expect(created).toEqual({
      id: await domainEventId('hook_subscription.created', 'subscription_id', subscription.body.id),
      type: 'hook_subscription_created',
      timestamp: expect.any(String),
      onboarding_id: null,
      data: {
        subscription_id: subscription.body.id,
        event: 'onboarding.completed',
        target_origin: 'https://localhost:9443',
      },
    });
    expect(deleted.data).toEqual({ subscription_id: subscription.body.id });
    expect(new Date(deleted.timestamp).getTime() - new Date(created.timestamp).getTime()).toBe(60_000);
  });

  it('keeps secrets and personal data out of the feed', async () => {
    const feedTeam = await createTeamWithKey(service);
    const key = await createApiKey(service, feedTeam.teamId, ['events:read'], { name: 'Zapier' });
    await revokeApiKey(service, feedTeam.teamId, key.apiKeyId);
    await apiRequest(service, feedTeam.apiKey, 'POST', '/clients', {
      body: { name: 'Private Person', email: 'private@example.com', phone: '555' },
    });
    const answer = await feed('', feedTeam.apiKey);
    const text = JSON.stringify(answer.body);
    expect(text).not.toContain(key.apiKey);
    expect(text).not.toContain('key_hash');
    expect(text).not.toContain('Private Person');
    expect(text).not.toContain('private@example.com');
    expect(answer.body.events.slice(0, 3).map((event: { type: string }) => event.type)).toEqual([
      'client_created',
      'api_key_revoked',
      'api_key_created',
    ]);
    expect(answer.body.events[2].data).toEqual({
      api_key_id: key.apiKeyId,
      name: 'Zapier',
      scopes: ['events:read'],
      expires_at: null,
    });
  });

  it('lists templates of the team, never gallery templates', async () => {
    const feedTeam = await createTeamWithKey(service);
    const template = await createTemplate(service, feedTeam.teamId, { name: 'Intake' });
    await createGalleryTemplate(service, { name: 'Gallery intake' });
    const answer = await feed('', feedTeam.apiKey);
    expect(answer.body.events[0]).toMatchObject({
      type: 'template_created',
      data: { template_id: template.id, name: 'Intake' },
    });
    expect(JSON.stringify(answer.body)).not.toContain('Gallery intake');
  });

  it('default limit 25; limit takes 1 to 100', async () => {
    const busy = await createTeamWithKey(service);
    // team_created and api_key_created, plus 28 clients: 30 audit events.
    for (let i = 0; i < 28; i++) {
      await apiRequest(service, busy.apiKey, 'POST', '/clients', {
        body: { name: `C${i}`, email: `c${i}@example.com` },
      });
    }
    const byDefault = await feed('', busy.apiKey);
    expect(byDefault.body.events).toHaveLength(25);
    expect(byDefault.body.events[0].data.client_id).toBeDefined();
    expect((await feed('?limit=1', busy.apiKey)).body.events).toHaveLength(1);
    expect((await feed('?limit=100', busy.apiKey)).body.events).toHaveLength(30);
    const all = (await feed('?limit=100', busy.apiKey)).body.events;
    expect(all.at(-1).type).toBe('team_created');
    for (const query of ['?limit=0', '?limit=101', '?limit=-5', '?limit=ten']) {
      const answer = await feed(query, busy.apiKey);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: 'limit must be between 1 and 100' });
    }
  });

  it.each(['bogus', 'client_created', 'onboarding_created', 'ONBOARDING.SENT', ''])(
    '400 Unknown event type listing the allowed values for type=%j',
    async (type) => {
      const answer = await feed(`?type=${encodeURIComponent(type)}`);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: UNKNOWN });
      expect(answer.body.error.startsWith('Unknown event type')).toBe(true);
      for (const allowed of PUBLIC_EVENT_TYPES) expect(answer.body.error).toContain(allowed);
    },
  );

  it('the type filter returns only events of that public type, with their onboarding_id', async () => {
    // Onboardings register their domain events in AUDIT_EVENT_TYPES; this test
    // registers stand-ins under two public names to exercise the feed and its filter.
    AUDIT_EVENT_TYPES['test.sent'] = {
      name: 'onboarding.sent',
      teamId: (data) => data.team_id,
      onboardingId: (data) => data.onboarding_id,
      details: (data) => ({ onboarding_id: data.onboarding_id, queued: true }),
      occurredAt: (data) => data.at,
    };
    AUDIT_EVENT_TYPES['test.completed'] = {
      name: 'onboarding.completed',
      teamId: (data) => data.team_id,
      onboardingId: (data) => data.onboarding_id,
      details: () => ({}),
    };
    try {
      const onboardingId = randomUUID();
      const at = service.clock.now().toISOString();
      const appended = await service.context.eventStore.append(
        `test_onboarding-${onboardingId}`,
        [
          { type: 'test.sent', data: { team_id: team.teamId, onboarding_id: onboardingId, at } },
          { type: 'test.completed', data: { team_id: team.teamId, onboarding_id: onboardingId } },
          { type: 'test.sent', data: { team_id: team.teamId, onboarding_id: onboardingId, at } },
          { type: 'test.sent', data: { team_id: other.teamId, onboarding_id: randomUUID(), at } },
        ],
        'no_stream',
      );
      await service.context.projections.waitForPosition(appended.position);

      const sent = await feed('?type=onboarding.sent');
      expect(sent.status).toBe(200);
      expect(sent.body.events).toHaveLength(2);
      expect(sent.body.events[0]).toEqual({
        id: expect.any(String),
        type: 'onboarding.sent',
        timestamp: at,
        onboarding_id: onboardingId,
        data: { onboarding_id: onboardingId, queued: true },
      });
      expect(sent.body.events[0].id).not.toBe(sent.body.events[1].id);
      const completed = await feed('?type=onboarding.completed');
      expect(completed.body.events.map((event: { type: string }) => event.type)).toEqual([
        'onboarding.completed',
      ]);
      expect((await feed('?type=file.uploaded')).body).toEqual({ events: [] });
      expect((await feed('?type=onboarding.sent&limit=1')).body.events).toHaveLength(1);
      // Without a filter, public and internal names come together, newest first.
      const types = (await feed()).body.events.map((event: { type: string }) => event.type);
      expect(types.slice(0, 3)).toEqual(['onboarding.sent', 'onboarding.completed', 'onboarding.sent']);
      expect(types).toContain('api_key_created');
    } finally {
      delete AUDIT_EVENT_TYPES['test.sent'];
      delete AUDIT_EVENT_TYPES['test.completed'];
    }
  });

  it("shows only the key's team's events", async () => {
    const mine = (await feed('?limit=100')).body.events.map((event: { id: string }) => event.id);
    const theirs = (await feed('?limit=100', other.apiKey)).body.events.map(
      (event: { id: string }) => event.id,
    );
    expect(mine.length).toBeGreaterThan(0);
    expect(theirs.length).toBeGreaterThan(0);
    expect(mine.filter((id: string) => theirs.includes(id))).toEqual([]);
  });

  it('403 api_key_scope_denied without events:read', async () => {
    const key = await createApiKey(service, team.teamId, ['clients:read']);
    const answer = await feed('', key.apiKey);
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe('api_key_scope_denied');
  });
});
