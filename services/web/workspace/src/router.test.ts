import { describe, expect, it } from 'vitest';
import { humanizeType } from './audit.ts';
import { pathOf, routeOf } from './router.ts';

describe('routeOf', () => {
  it('knows the screens and the emailed links', () => {
    expect(routeOf('/')).toEqual({ screen: 'home' });
    expect(routeOf('/workspace/')).toEqual({ screen: 'home' });
    expect(routeOf('/workspace/integrations')).toEqual({ screen: 'integrations' });
    expect(routeOf('/workspace/invitations/abc')).toEqual({ screen: 'invitation', token: 'abc' });
    expect(routeOf('/workspace/reset-password/xyz')).toEqual({ screen: 'reset-password', token: 'xyz' });
    expect(routeOf('/workspace/nope')).toEqual({ screen: 'not-found' });
    expect(routeOf('/workspace/members/extra')).toEqual({ screen: 'not-found' });
  });

  it('round-trips paths', () => {
    for (const path of ['/workspace/sign-in', '/workspace/activity', '/workspace/invitations/t0k']) {
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
