import { expect } from 'vitest';
import { trustCertificatesForTests } from '../../shared/net/outbound.ts';
import { selfSignedCertificate } from '../helpers/https-receiver.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { adminRequest, request } from '../helpers/tenant.ts';
import {
  createOnboarding,
  latestToken,
  sendOnboarding,
  templateIds,
  type Tenant,
} from './onboardings-fixtures.ts';

/**
 * Helpers of the hook delivery, automation and mailer tests: a service whose outbound
 * requests may reach local receivers (127.0.0.1 and localhost allowlisted, their
 * self-signed certificate trusted), a fixed service clock, drains and clock moves through
 * the operator API, rules through the operator API, and an onboarding completed through
 * the portal.
 */

/** 10:15:00.123 UTC: automation passes fall on 10:20, 10:25, ... */
export const START = new Date('2026-11-21T10:15:00.123Z');

export async function startOutboundService(env: Record<string, string> = {}): Promise<TestService> {
  const service = await startTestService({
    RATE_LIMITS: 'off',
    HOOK_TARGET_ALLOWLIST: '127.0.0.1,localhost',
    PUBLIC_URL: 'https://forms.example.com',
    ...env,
  });
  service.clock.set(START);
  trustCertificatesForTests(service.context, (await selfSignedCertificate()).cert);
  return service;
}

/** POST /admin/v1/work/drain (everything due by the service clock has run). */
export async function drain(service: TestService): Promise<void> {
  const answer = await adminRequest(service, 'POST', '/work/drain');
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

/** POST /admin/v1/clock/advance, then a drain. */
export async function advance(service: TestService, seconds: number): Promise<void> {
  const answer = await adminRequest(service, 'POST', '/clock/advance', { seconds });
  expect(answer.status).toBe(200);
  await drain(service);
}

export const minutes = (n: number) => n * 60;

export async function createRule(service: TestService, teamId: string, body: Record<string, unknown>) {
  const answer = await adminRequest(service, 'POST', `/teams/${teamId}/automation-rules`, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.rule as {
    id: string;
    name: string;
    trigger: string;
    action: Record<string, unknown>;
    enabled: boolean;
    latest_run: string;
  };
}

export async function latestRun(service: TestService, teamId: string, ruleId: string): Promise<string> {
  const answer = await adminRequest(service, 'GET', `/teams/${teamId}/automation-rules/${ruleId}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.latest_run as string;
}

/** Creates, sends and completes an onboarding through the API and the portal. */
export async function completeOnboarding(service: TestService, tenant: Tenant, clientId = tenant.clientId) {
  const created = await createOnboarding(service, tenant, { client_id: clientId });
  const sent = await sendOnboarding(service, tenant, created.id);
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const token = await latestToken(service, created.id);
  const [about] = await templateIds(service, tenant, tenant.templateId);
  const portal = (method: string, path: string, body?: unknown) =>
    request(service, method, `/portal/v1/onboardings/${token}${path}`, { body });
  expect((await portal('GET', '')).status).toBe(200);
  expect((await portal('PUT', `/answers/${about!.fieldIds[0]}`, { value: 'Ada Lovelace' })).status).toBe(200);
  const submitted = await portal('POST', `/steps/${about!.stepId}/submit`);
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
  expect(submitted.body.onboarding.status).toBe('completed');
  return { onboardingId: created.id, token };
}
