/**
 * The members feature's calls of the workspace API through the shared typed client: paths,
 * parameters, bodies and answers are the generated OpenAPI types, so a server change fails
 * the build here.
 */
import { call } from '../../../../../shared/api/client.ts';
import type { components, paths } from '../../../../../shared/api/openapi.d.ts';
import { api } from '../../../api.ts';

export type TeamMember = components['schemas']['WorkspaceMember'];
type Role = TeamMember['role'];

export const listMembers = () => call(api.GET('/workspace/v1/members'));

export const inviteMember = (body: { email: string; name: string; role: Role }) =>
  call(api.POST('/workspace/v1/invitations', { body }));

export const changeRole = (memberId: string, role: Role) =>
  call(
    api.PATCH('/workspace/v1/members/{member_id}', {
      params: { path: { member_id: memberId } },
      body: { role },
    }),
  );

export const removeMember = (memberId: string) =>
  call(api.DELETE('/workspace/v1/members/{member_id}', { params: { path: { member_id: memberId } } }));

export const listInvitations = () => call(api.GET('/workspace/v1/invitations'));

export const resendInvitation = (invitationId: string) =>
  call(
    api.POST('/workspace/v1/invitations/{invitation_id}/resend', {
      params: { path: { invitation_id: invitationId } },
    }),
  );

export const revokeInvitation = (invitationId: string) =>
  call(
    api.DELETE('/workspace/v1/invitations/{invitation_id}', {
      params: { path: { invitation_id: invitationId } },
    }),
  );

type Answer<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer A } } };
}
  ? A
  : never;

/** A pending invitation as GET /workspace/v1/invitations answers it. */
export type PendingInvitation = Answer<'/workspace/v1/invitations', 'get'>['data'][number];
