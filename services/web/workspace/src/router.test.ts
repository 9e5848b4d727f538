import { describe, expect, it } from 'vitest';
import { humanizeType } from './features/events/audit.ts';
import { afterSignIn, pathOf, returnPath, routeOf, signInPath } from './router.ts';

describe('routeOf', () => {
  it('knows the screens and the emailed links', () => {
    expect(routeOf('/')).toEqual({ screen: 'home' });
    expect(routeOf('/workspace/')).toEqual({ screen: 'home' });
    expect(routeOf('/workspace/integrations')).toEqual({ screen: 'integrations' });
    expect(routeOf('/workspace/invitations/abc')).toEqual({ screen: 'invitation', token: 'abc' });
    expect(routeOf('/workspace/reset-password/xyz')).toEqual({ screen: 'reset-password', token: 'xyz' });
    expect(routeOf('/workspace/nope')).toEqual({ screen: 'not-found' });
    expect(routeOf('/workspace/members/extra')).toEqual({ screen: 'not-found' });
    expect(routeOf('/workspace/onboardings/o-1')).toEqual({ screen: 'onboarding', id: 'o-1' });
    expect(routeOf('/workspace/clients/c-1')).toEqual({ screen: 'client', id: 'c-1' });
    expect(routeOf('/workspace/templates/t-1')).toEqual({ screen: 'template', id: 't-1' });
    expect(routeOf('/workspace/templates/t-1/x')).toEqual({ screen: 'not-found' });
    expect(routeOf('/workspace/settings/payments/return')).toEqual({
      screen: 'settings',
      payments: 'return',
    });
    expect(routeOf('/workspace/settings/payments/refresh')).toEqual({
      screen: 'settings',
      payments: 'refresh',
    });
    expect(routeOf('/workspace/settings/payments/other')).toEqual({ screen: 'not-found' });
  });

  it('round-trips paths', () => {
    for (const path of [
      '/workspace/sign-in',
      '/workspace/activity',
      '/workspace/invitations/t0k',
      '/workspace/onboardings',
      '/workspace/onboardings/o-1',
      '/workspace/clients/c-1',
      '/workspace/templates/t-1',
      '/workspace/settings',
      '/workspace/settings/payments/return',
    ]) {
      expect(pathOf(routeOf(path))).toBe(path);
    }
  });
});

describe('humanizeType', () => {
  it('turns event types into words', () => {
    expect(humanizeType('MemberInvited')).toBe('Member invited');
    expect(humanizeType('api_key.created')).toBe('Api key created');
  });
});

describe('returning after sign-in', () => {
  it('returns to a team page of this origin, with its query', () => {
    expect(afterSignIn(`?next=${encodeURIComponent('/workspace/onboardings/o-1')}`)).toBe(
      '/workspace/onboardings/o-1',
    );
    expect(returnPath('/workspace/onboardings?status=sent')).toBe('/workspace/onboardings?status=sent');
    expect(signInPath('/workspace/clients/c-1')).toBe(
      `/workspace/sign-in?next=${encodeURIComponent('/workspace/clients/c-1')}`,
    );
  });

  it('is never an open redirect: other origins, odd paths and public screens lead Home', () => {
    for (const next of [
      'https://evil.example/workspace/members',
      '//evil.example/workspace/members',
      '/workspace/..//evil.example',
      '/\\evil.example',
      '/workspace/\\\\evil.example',
      'javascript:alert(1)',
      '/elsewhere',
      '/workspace/sign-in',
      '/workspace/reset-password/t',
      '/workspace/nope',
      '',
    ]) {
      expect(afterSignIn(`?next=${encodeURIComponent(next)}`), next).toBe('/workspace');
    }
    expect(afterSignIn('')).toBe('/workspace');
    expect(signInPath('https://evil.example/')).toBe('/workspace/sign-in');
  });

  it('reads /workspace/home as Home', () => {
    expect(routeOf('/workspace/home')).toEqual({ screen: 'home' });
    expect(routeOf('/workspace/sign-in?next=%2Fworkspace%2Fclients')).toEqual({ screen: 'sign-in' });
    expect(pathOf({ screen: 'home' })).toBe('/workspace');
  });
});
