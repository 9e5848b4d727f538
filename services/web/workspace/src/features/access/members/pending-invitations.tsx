import { listInvitations, resendInvitation, revokeInvitation, type PendingInvitation } from './api.ts';
import { currentLocale, t } from '../../../i18n.ts';
import { ConfirmDialog, ErrorMessage, Status } from '../../../ui/index.ts';
import { RowButton, Rows } from '../../../ui/rows.tsx';
import { useList } from '../../../ui/use-list.ts';

type Open = { kind: 'resend' | 'revoke'; invitation: PendingInvitation };

const day = (iso: string) =>
  new Date(iso).toLocaleDateString(currentLocale(), { year: 'numeric', month: 'short', day: 'numeric' });

/**
 * Pending invitations (owners and admins): who was invited, when it was last sent and until
 * when its link works; Resend (a new link, the older one stops working) and Revoke, each
 * confirmed in a dialog. `version` changes when a new invitation was sent.
 */
export function PendingInvitations({ version }: { version: number }) {
  const { items, error, status, open, setOpen, done } = useList<PendingInvitation, Open>(
    listInvitations,
    version,
  );

  return (
    <section class="card section" aria-labelledby="pending-title">
      <h2 id="pending-title">{t('invitations.title')}</h2>
      <Status text={status} />
      <ErrorMessage text={error} />
      <Rows
        items={items}
        none={t('invitations.none')}
        row={(invitation) => <InvitationRow key={invitation.id} invitation={invitation} onOpen={setOpen} />}
      />
      {open ? <InvitationDialog open={open} onClose={() => setOpen(null)} onDone={done} /> : null}
    </section>
  );
}

function InvitationRow({
  invitation,
  onOpen,
}: {
  invitation: PendingInvitation;
  onOpen: (open: Open) => void;
}) {
  const to = t('invitations.to', { email: invitation.email });
  return (
    <li class="row">
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
        <RowButton kind="secondary" of={to} onClick={() => onOpen({ kind: 'resend', invitation })}>
          {t('invitations.resend')}
        </RowButton>
        <RowButton kind="danger" of={to} onClick={() => onOpen({ kind: 'revoke', invitation })}>
          {t('invitations.revoke')}
        </RowButton>
      </div>
    </li>
  );
}

function InvitationDialog({
  open,
  onClose,
  onDone,
}: {
  open: Open;
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
