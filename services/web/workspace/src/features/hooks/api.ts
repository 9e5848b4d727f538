/**
 * The hooks feature's calls of the workspace API through the shared typed client: paths,
 * parameters, bodies and answers are the generated OpenAPI types.
 */
import { call } from '../../../../shared/api/client.ts';
import type { components } from '../../../../shared/api/openapi.d.ts';
import { api, type ApiBody } from '../../api.ts';
import type { DeliveryTarget } from './webhooks.ts';

export type HookSubscription = components['schemas']['HookSubscription'];
export type WebhookEndpoint = components['schemas']['WebhookEndpoint'];
type EventType = WebhookEndpoint['event_types'][number];
export type SubscriptionBody = ApiBody<'/workspace/v1/hook-subscriptions', 'post'>;

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

/**
 * The deliveries' paths of a target: a hook subscription's and a signed webhook endpoint's
 * take the same parameters and answer the same shapes.
 */
const deliveries = ({ kind, id }: DeliveryTarget) => ({
  list: `/workspace/v1/${kind}/{id}/deliveries` as const,
  test: `/workspace/v1/${kind}/{id}/test` as const,
  replay: `/workspace/v1/${kind}/{id}/deliveries/{delivery_id}/replay` as const,
  replayFailed: `/workspace/v1/${kind}/{id}/deliveries/replay-failed` as const,
  at: { path: { id } },
});

/** The newest 50 deliveries of a target with their attempts. */
export const listDeliveries = (target: DeliveryTarget) => {
  const { list, at } = deliveries(target);
  return call(api.GET(list, { params: { ...at, query: { limit: 50 } } }));
};

export const sendTestDelivery = (target: DeliveryTarget) => {
  const { test, at } = deliveries(target);
  return call(api.POST(test, { params: at }));
};

export const replayDelivery = (target: DeliveryTarget, deliveryId: string) => {
  const { replay, at } = deliveries(target);
  return call(api.POST(replay, { params: { path: { ...at.path, delivery_id: deliveryId } } }));
};

/** Replays the target's failed deliveries since an instant (ISO). */
export const replayFailedDeliveries = (target: DeliveryTarget, since: string) => {
  const { replayFailed, at } = deliveries(target);
  return call(api.POST(replayFailed, { params: at, body: { since } }));
};
