import type { MemberRole } from '../contract/roles.ts';

/**
 * Who may do what in the workspace: every /workspace/v1 route names its action and the
 * server checks it on every request (403 code forbidden otherwise). docs/decisions/0031-team-workspace-api.md's permission
 * table is this table. Acting on oneself (leave the team, own session and two-factor) needs
 * no entry: any signed-in member may.
 */
export const PERMISSIONS = {
  'members.list': ['owner', 'admin', 'member'],
  'members.invite': ['owner'],
  /** List, resend and revoke pending invitations. */
  'members.invitations': ['owner', 'admin'],
  'members.change_role': ['owner'],
  'members.remove': ['owner'],
  'api_keys.list': ['owner', 'admin'],
  'api_keys.create': ['owner', 'admin'],
  'api_keys.rotate': ['owner', 'admin'],
  'api_keys.revoke': ['owner', 'admin'],
  'audit.read': ['owner', 'admin'],
  'hooks.read': ['owner', 'admin'],
  'hooks.manage': ['owner', 'admin'],
  'hooks.secrets': ['owner', 'admin'],
  'automation_rules.read': ['owner', 'admin'],
  'automation_rules.manage': ['owner', 'admin'],
  'templates.read': ['owner', 'admin', 'member'],
  'clients.read': ['owner', 'admin', 'member'],
  'clients.manage': ['owner', 'admin', 'member'],
  'onboardings.read': ['owner', 'admin', 'member'],
  'onboardings.manage': ['owner', 'admin', 'member'],
  'templates.manage': ['owner', 'admin', 'member'],
  'team.read': ['owner', 'admin', 'member'],
  'answers.read': ['owner', 'admin', 'member'],
  'answers.review': ['owner', 'admin', 'member'],
  /** Mark a payment field paid for money received outside Stripe. */
  'payments.mark_paid': ['owner', 'admin'],
  'team.update': ['owner', 'admin'],
  /** Connect, refresh and disconnect the team's Stripe account. */
  'payments.connect': ['owner', 'admin'],
} as const satisfies Record<string, readonly MemberRole[]>;

export type WorkspaceAction = keyof typeof PERMISSIONS;

export function may(role: MemberRole, action: WorkspaceAction): boolean {
  return (PERMISSIONS[action] as readonly MemberRole[]).includes(role);
}

/**
 * Actions re-authenticated within the last 5 minutes (password or TOTP) must precede: API
 * keys, and every route that shows or rotates a signing secret (the hook signing secret,
 * a webhook endpoint's secret, shown at its creation and rotation).
 */
export const REAUTHENTICATED_ACTIONS: ReadonlySet<WorkspaceAction> = new Set([
  'api_keys.create',
  'api_keys.rotate',
  'api_keys.revoke',
  'hooks.secrets',
]);
