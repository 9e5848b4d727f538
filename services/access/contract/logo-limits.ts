/**
 * What a team's logo may be (PATCH /admin/v1/teams/:team_id and the workspace's Settings):
 * a PNG, JPEG or WebP image of at most 256 KiB. Pure: the service checks an upload's bytes
 * against it (team-branding.ts) and the Settings page checks a chosen file before it sends.
 */
export const MAX_LOGO_BYTES = 256 * 1024;
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];
