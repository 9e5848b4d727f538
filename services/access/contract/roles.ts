/**
 * A member's role in a team (client-onboarding-api.md, Team members): one owner or more,
 * admins, members. What each may do is the workspace permission table
 * (services/access/workspace/permissions.ts). Pure: the service and the workspace app share it.
 */
export const MEMBER_ROLES = ['owner', 'admin', 'member'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];
