import type { FastifyInstance, RouteOptions } from 'fastify';

export interface RegisteredRoute {
  method: string;
  url: string;
  config: RouteOptions['config'];
  hidden: boolean;
  /** The largest body the route reads (shared/http/body-limits.ts). */
  bodyLimit: number | undefined;
}

const registries = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/**
 * Records every route registered on `app` from now on (an onRoute hook on the root, so
 * routes of every plugin registered later count). Tests iterate them: every /api/v1
 * route must appear in /openapi.json and require an API key.
 */
export function trackRoutes(app: FastifyInstance): void {
  const routes: RegisteredRoute[] = [];
  registries.set(app, routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      routes.push({
        method: String(method).toUpperCase(),
        url: route.url,
        config: route.config,
        hidden: Boolean((route.schema as { hide?: boolean } | undefined)?.hide),
        bodyLimit: route.bodyLimit,
      });
    }
  });
}

export function registeredRoutes(app: FastifyInstance): RegisteredRoute[] {
  return registries.get(app) ?? [];
}
