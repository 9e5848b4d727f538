import { describe, expect, it } from 'vitest';
import { logMailWithoutSmtp } from './workspace-mail.ts';

describe('the link of an account email in the log', () => {
  const mail = { teamId: 'team-1', link: 'http://127.0.0.1:3000/workspace/invitations/abc' };

  it('is written at info level only when no SMTP server sends the email', () => {
    const lines: unknown[][] = [];
    const logger = { info: (...args: unknown[]) => void lines.push(args) };
    logMailWithoutSmtp(logger as never, undefined, 'invitation email', mail);
    expect(lines).toEqual([
      [
        { teamId: 'team-1', link: mail.link, outbox: 'GET /admin/v1/teams/team-1/emails' },
        'invitation email queued (no SMTP_URL: nothing is sent; open this link to continue)',
      ],
    ]);
  });

  it('is never written when SMTP_URL is set', () => {
    const lines: unknown[][] = [];
    const logger = { info: (...args: unknown[]) => void lines.push(args) };
    logMailWithoutSmtp(logger as never, 'smtp://mail.example.com:587', 'invitation email', mail);
    expect(lines).toEqual([]);
  });
});
