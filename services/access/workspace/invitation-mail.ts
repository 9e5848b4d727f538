/**
 * The invitation email. Its subject and sender name are the service's own fixed words: the
 * team's name and the inviter's name are written by whoever signed up, so they appear only
 * in the body, quoted and attributed, never as the service speaking
 * (docs/decisions/0006-self-serve-abuse-limits.md).
 */
export const INVITATION_SUBJECT = 'You are invited to join a team on Client onboarding';

/** One line, quoted: line breaks and quotes of the typed text cannot fake the mail's own lines. */
export const quoted = (typed: string) =>
  `“${typed.replace(/[\r\n\u2028\u2029]+/g, ' ').replace(/[“”"]/g, "'")}”`;

export function invitationMail(invite: {
  inviterName: string;
  teamName: string | undefined;
  role: string;
  link: string;
}) {
  const team = invite.teamName === undefined ? 'a team' : `the team named ${quoted(invite.teamName)}`;
  return {
    subject: INVITATION_SUBJECT,
    text: [
      `A member of ${team} on Client onboarding, who gave their name as ${quoted(invite.inviterName)}, invited you to join it as ${invite.role}.`,
      'The team and member names are written by the team itself, not by Client onboarding.',
      '',
      `Accept the invitation and choose your password here (the link works once, for 7 days):`,
      invite.link,
      '',
      'If you do not know this team, ignore this email.',
    ].join('\n'),
  };
}
