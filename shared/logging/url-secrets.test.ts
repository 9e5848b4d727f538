import { describe, expect, it } from 'vitest';
import { redactUrl, requestSerializer } from './url-secrets.ts';

const token = 'ab'.repeat(32);

describe('redactUrl', () => {
  it('replaces path segments of 64 hex characters and drops the query', () => {
    expect(redactUrl(`/x/v1/things/${token}/parts/7?pin=123456`)).toBe('/x/v1/things/[secret]/parts/7');
    expect(redactUrl(`/f/${token.toUpperCase()}`)).toBe('/f/[secret]');
  });

  it('keeps other segments', () => {
    expect(redactUrl(`/x/${token}0/${'a'.repeat(63)}`)).toBe(`/x/${token}0/${'a'.repeat(63)}`);
    expect(redactUrl('/health')).toBe('/health');
  });
});

describe('requestSerializer', () => {
  it('writes the route pattern, never the URL', () => {
    const logged = requestSerializer({
      method: 'GET',
      url: `/f/${token}?pin=123456`,
      routeOptions: { url: '/f/:token' },
      host: 'h',
      ip: '127.0.0.1',
      socket: {},
    } as never);
    expect(logged).toEqual({
      method: 'GET',
      route: '/f/:token',
      host: 'h',
      remoteAddress: '127.0.0.1',
      remotePort: undefined,
    });
    expect(JSON.stringify(logged)).not.toContain(token);
  });

  it('writes a request that matched no route without its path', () => {
    const logged = requestSerializer({ method: 'GET', url: `/nothing/${token}`, routeOptions: {} } as never);
    expect(logged.route).toBe('(no route)');
    expect(JSON.stringify(logged)).not.toContain('nothing');
  });
});
