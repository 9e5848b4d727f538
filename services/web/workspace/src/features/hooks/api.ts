/**
 * The hooks feature's calls of the workspace API through the shared typed client: paths,
 * parameters, bodies and answers are the generated OpenAPI types.
 */
import { call } from '../../../../shared/api/client.ts';
import type { components, paths } from '../../../../shared/api/openapi.d.ts';
import { api } from '../../api.ts';

export type HookSubscription = components['schemas']['HookSubscription'];
export type WebhookEndpoint = components['schemas']['WebhookEndpoint'];
type EventType = WebhookEndpoint['event_types'][number];
export type SubscriptionBody = NonNullable<
  paths['/workspace/v1/hook-subscriptions']['post']['requestBody']
>['content']['application/json'];

const byId = (id: string) => ({ params: { path: { id } } });

export const listSubscriptions = () => call(api.GET('/workspace/v1/hook-subscriptions'));

export const addSubscription = (body: SubscriptionBody) =>
  call(api.POST('/workspace/v1/hook-subscriptions', { body }));

export const deleteSubscription = (id: string) =>
  call(api.DELETE('/workspace/v1/hook-subscriptions/{id}', byId(id)));

export const getSigningSecret = () => call(api.GET('/workspace/v1/hook-signing-secret'));

export const rotateSigningSecret = () => call(api.POST('/workspace/v1/hook-signing-secret/rotate'));

export const listEndpoints = () => call(api.GET('/workspace/v1/webhook-endpoints'));

export const addEndpoint = (body: { url: string; event_types: EventType[] }) =>
  call(api.POST('/workspace/v1/webhook-endpoints', { body }));

export const rotateEndpointSecret = (id: string) =>
  call(api.POST('/workspace/v1/webhook-endpoints/{id}/rotate-secret', byId(id)));

export const deleteEndpoint = (id: string) =>
  call(api.DELETE('/workspace/v1/webhook-endpoints/{id}', byId(id)));
