/**
 * The access feature's calls of the workspace API through the shared typed client: signing in
 * and up, invitations, password resets, email verification, re-authentication, your account's
 * two-factor sign-in and password, the team's settings and its API keys (members and pending
 * invitations: ./members/api.ts). Paths, parameters, bodies and answers are the generated
 * OpenAPI types, so a server change fails the build here.
 */
import { call, type Outcome } from '../../../../shared/api/client.ts';
import type { components, paths } from '../../../../shared/api/openapi.d.ts';
import { api } from '../../api.ts';

/** Who is signed in: the answer of signing in and of accepting an invitation. */
export type Session = components['schemas']['WorkspaceSession'];
export type ApiKey = components['schemas']['WorkspaceApiKey'];
/** The team's settings as GET and PATCH /workspace/v1/team answer them. */
export type TeamSettings = components['schemas']['WorkspaceTeam'];
export type TeamChanges = NonNullable<
  paths['/workspace/v1/team']['patch']['requestBody']
>['content']['application/json'];
export type NewKey = NonNullable<
  paths['/workspace/v1/api-keys']['post']['requestBody']
>['content']['application/json'];
type SignInBody = NonNullable<
  paths['/workspace/v1/sessions']['post']['requestBody']
>['content']['application/json'];

const byToken = (token: string) => ({ params: { path: { token } } });
const byKey = (keyId: string) => ({ params: { path: { key_id: keyId } } });
/** The Idempotency-Key of one key creation attempt, so Check repeats exactly the same request. */
const once = (idempotencyKey: string) => ({ headers: { 'idempotency-key': idempotencyKey } });

export const signIn = (body: SignInBody) => call(api.POST('/workspace/v1/sessions', { body }));

export const signUp = (body: { team_name: string; name: string; email: string; password: string }) =>
  call(api.POST('/workspace/v1/sign-up', { body }));

export const acceptInvitation = (token: string, body: { name: string; password: string }) =>
  call(api.POST('/workspace/v1/invitations/{token}/accept', { ...byToken(token), body }));

/** What an invitation link names before accepting: team, inviter, address, role. */
export const readInvitation = (token: string) =>
  call(api.GET('/workspace/v1/invitations/{token}/details', byToken(token)));

export const requestPasswordReset = (email: string) =>
  call(api.POST('/workspace/v1/password-resets', { body: { email } }));

export const resetPassword = (token: string, password: string) =>
  call(api.POST('/workspace/v1/password-resets/{token}', { ...byToken(token), body: { password } }));

export const getEmailVerification = () => call(api.GET('/workspace/v1/email-verification'));

export const resendEmailVerification = () => call(api.POST('/workspace/v1/email-verification/resend'));

export const verifyEmail = (token: string) =>
  call(api.POST('/workspace/v1/email-verification/{token}', byToken(token)));

export const reauthenticate = (body: { password: string } | { totp: string }) =>
  call(api.POST('/workspace/v1/sessions/current/reauth', { body }));

export const getTwoFactor = () => call(api.GET('/workspace/v1/me/totp'));

export const startTwoFactor = () => call(api.POST('/workspace/v1/me/totp'));

export const confirmTwoFactor = (code: string) =>
  call(api.POST('/workspace/v1/me/totp/confirm', { body: { code } }));

export const turnOffTwoFactor = () => call(api.DELETE('/workspace/v1/me/totp'));

export const countRecoveryCodes = () => call(api.GET('/workspace/v1/me/recovery-codes'));

export const newRecoveryCodes = () => call(api.POST('/workspace/v1/me/recovery-codes'));

export const changePassword = (password: string) =>
  call(api.POST('/workspace/v1/me/password', { body: { password } }));

export const getTeam = () => call(api.GET('/workspace/v1/team'));

export const updateTeam = (body: TeamChanges) => call(api.PATCH('/workspace/v1/team', { body }));

export const listApiKeys = () => call(api.GET('/workspace/v1/api-keys'));

export const createApiKey = (body: NewKey, idempotencyKey: string) =>
  call(api.POST('/workspace/v1/api-keys', { body, ...once(idempotencyKey) }));

export const rotateApiKey = (keyId: string, idempotencyKey: string) =>
  call(api.POST('/workspace/v1/api-keys/{key_id}/rotate', { ...byKey(keyId), ...once(idempotencyKey) }));

export const revokeApiKey = (keyId: string) =>
  call(api.DELETE('/workspace/v1/api-keys/{key_id}', byKey(keyId)));

/** The answer of creating or rotating a key: the secret once, or already_created without it. */
export type KeyCreated = Awaited<ReturnType<typeof createApiKey>> extends Outcome<infer A> ? A : never;
