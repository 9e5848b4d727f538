import { inTransaction } from '../../shared/db/pool.ts';
import type { Platform } from '../../shared/app-deps.ts';
import { queueMail } from '../../shared/mail/outbox.ts';
import type { DuePass } from '../../shared/work-queue/due-pass.ts';
import { logoUrl } from '../access/index.ts';
import type { NotificationKind } from './contract/notifications.ts';
import { digestEmail } from './digest-email.ts';

/** What the digest pass uses. */
export type DigestDeps = Pick<Platform, 'pool' | 'clock' | 'settings'>;

/**
 * The debounce of a member's digest: it goes once no new notification came for
 * DIGEST_QUIET_SECONDS, or once the oldest has waited DIGEST_MAX_WAIT_SECONDS (a steady
 * trickle still gets its email). A burst of completions becomes one email.
 */
export const DIGEST_QUIET_SECONDS = 120;
export const DIGEST_MAX_WAIT_SECONDS = 15 * 60;

/** Most members' digests in one pass (the next pass goes on). */
const PASS_LIMIT = 200;

/**
 * The due pass `notification-digests`: for each member whose pending notifications are due
 * (above), one email through the outbox (kind notification; the mailer sends it) listing
 * them all, and the rows marked sent in the same transaction. The rows are claimed with
 * `for update skip locked`: two passes at once never email a notification twice. A member
 * removed since gets no email.
 */
export const notificationDigestsPass: DuePass<DigestDeps> = {
  name: 'notification-digests',
  async runDue(context, signal) {
    const now = context.clock.now();
    const { rows } = await context.pool.query<{ member_id: string }>(
      `select member_id from notifications where email_state = 'pending'
       group by member_id
       having max(created_at) <= $1::timestamptz - make_interval(secs => $2)
           or min(created_at) <= $1::timestamptz - make_interval(secs => $3)
       order by min(created_at) limit $4`,
      [now, DIGEST_QUIET_SECONDS, DIGEST_MAX_WAIT_SECONDS, PASS_LIMIT],
    );
    let sent = 0;
    for (const { member_id: memberId } of rows) {
      if (signal?.aborted) break;
      if (await sendDigest(context, memberId)) sent += 1;
    }
    return sent;
  },
};

interface PendingRow {
  id: string;
  kind: NotificationKind;
  onboarding_id: string;
  template_name: string;
}

async function sendDigest(context: DigestDeps, memberId: string): Promise<boolean> {
  return inTransaction(context.pool, async (tx) => {
    const { rows: pending } = await tx.query<PendingRow>(
      `select id, kind, onboarding_id, template_name from notifications
       where member_id = $1 and email_state = 'pending'
       order by created_at, position for update skip locked`,
      [memberId],
    );
    if (pending.length === 0) return false;
    const now = context.clock.now();
    const { rows } = await tx.query<{
      team_id: string;
      email: string;
      name: string;
      member_locale: string | null;
      team_name: string;
      team_locale: string | null;
      accent_color: string | null;
      logo_sha256: string | null;
    }>(
      `select m.team_id, m.email, m.name, m.locale as member_locale, t.name as team_name,
              t.locale as team_locale, t.accent_color, t.logo_sha256
       from team_members m join teams t on t.id = m.team_id
       where m.id = $1 and m.removed_at is null`,
      [memberId],
    );
    const member = rows[0];
    const ids = pending.map((row) => row.id);
    if (!member) {
      await tx.query(`update notifications set email_state = 'none' where id = any($1::uuid[])`, [ids]);
      return false;
    }
    const base = context.settings.PUBLIC_URL.replace(/\/$/, '');
    const logo = logoUrl(member.team_id, member.logo_sha256);
    const email = digestEmail({
      locale: member.member_locale ?? member.team_locale,
      memberName: member.name,
      team: {
        name: member.team_name,
        logoUrl: logo ? `${base}${logo}` : null,
        accentColor: member.accent_color,
      },
      workspaceUrl: `${base}/workspace`,
      items: pending.map((row) => ({
        kind: row.kind,
        templateName: row.template_name,
        onboardingId: row.onboarding_id,
      })),
    });
    await queueMail(tx, {
      teamId: member.team_id,
      kind: 'notification',
      to: member.email,
      fromName: member.team_name,
      subject: email.subject,
      text: email.text,
      html: email.html,
      onboardingId: null,
      at: now,
    });
    await tx.query(
      `update notifications set email_state = 'sent', emailed_at = $2 where id = any($1::uuid[])`,
      [ids, now],
    );
    return true;
  });
}
