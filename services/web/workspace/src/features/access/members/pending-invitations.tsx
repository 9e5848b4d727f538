import { useCallback, useEffect, useState } from 'preact/hooks';
import { listInvitations, resendInvitation, revokeInvitation, type PendingInvitation } from './api.ts';
import { t } from '../../../i18n.ts';
import { problemMessage } from '../../../problems.ts';
import { ConfirmDialog, ErrorMessage, Status } from '../../../ui/index.ts';

type Open = { kind: 'resend' | 'revoke'; invitation: PendingInvitation } | null;

const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });

/**
 * Pending invitations (owners and admins): who was invited, when it was last sent and until
 * when its link works; Resend (a new link, the older one stops working) and Revoke, each
 * confirmed in a dialog. `version` changes when a new invitation was sent.
 */
export function PendingInvitations({ version }: { version: number }) {
  const [invitations, setInvitations] = useState<PendingInvitation[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [open, setOpen] = useState<Open>(null);

  const load = useCallback(async () => {
    const answer = await listInvitations();
    if (answer.ok) setInvitations(answer.data.data);
    else setError(problemMessage(answer.problem, t));
  }, []);
  useEffect(() => {
    void load();
  }, [load, version]);

  const done = (message: string) => {
    setOpen(null);
    setError(null);
    setStatus(message);
    void load();
  };

  return (
    <section class="card section" aria-labelledby="pending-title">
      <h2 id="pending-title">{t('invitations.title')}</h2>
      <Status text={status} />
      <ErrorMessage text={error} />
      {invitations === null ? (
        <p class="loading">{t('app.loading')}</p>
      ) : invitations.length === 0 ? (
        <p>{t('invitations.none')}</p>
      ) : (
        <ul class="rows">
          {invitations.map((invitation) => (
            <li key={invitation.id} class="row">
              <h3 class="row-title">{invitation.email}</h3>
              <dl class="facts">
                <dt>{t('field.name')}</dt>
                <dd>{invitation.name}</dd>
                <dt>{t('members.role')}</dt>
                <dd>{t(`role.${invitation.role}`)}</dd>
                <dt>{t('invitations.sent')}</dt>
                <dd>
                  {t('invitations.sentOn', {
                    date: day(invitation.last_sent_at),
                    count: invitation.sent_count,
                  })}
                </dd>
                {invitation.invited_by ? (
                  <>
                    <dt>{t('invitations.invitedBy')}</dt>
                    <dd>{invitation.invited_by.name}</dd>
                  </>
                ) : null}
                <dt>{t('invitations.link')}</dt>
                <dd>
                  {invitation.expired
                    ? t('invitations.expired')
                    : t('invitations.worksUntil', { date: day(invitation.expires_at) })}
                </dd>
              </dl>
              <div class="actions">
                <button
                  type="button"
                  class="button-secondary"
                  onClick={() => setOpen({ kind: 'resend', invitation })}
                >
                  {t('invitations.resend')}
                  <span class="visually-hidden"> {t('invitations.to', { email: invitation.email })}</span>
                </button>
                <button
                  type="button"
                  class="button-danger"
                  onClick={() => setOpen({ kind: 'revoke', invitation })}
                >
                  {t('invitations.revoke')}
                  <span class="visually-hidden"> {t('invitations.to', { email: invitation.email })}</span>
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {open ? <InvitationDialog open={open} onClose={() => setOpen(null)} onDone={done} /> : null}
    </section>
  );
}

function InvitationDialog({
  open,
  onClose,
  onDone,
}: {
  open: NonNullable<Open>;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const { kind, invitation } = open;
  const resend = kind === 'resend';
  return (
    <ConfirmDialog<unknown>
      title={t(resend ? 'invitations.resendTitle' : 'invitations.revokeTitle', { email: invitation.email })}
      intro={t(resend ? 'invitations.resendIntro' : 'invitations.revokeIntro')}
      action={t(resend ? 'invitations.resendConfirm' : 'invitations.revokeConfirm')}
      danger={!resend}
      act={() => (resend ? resendInvitation(invitation.id) : revokeInvitation(invitation.id))}
      onDone={() =>
        onDone(t(resend ? 'invitations.resent' : 'invitations.revoked', { email: invitation.email }))
      }
      onClose={onClose}
    />
  );
}
