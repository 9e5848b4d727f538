import { useState } from 'preact/hooks';
import type { MemberRole } from '../../../../../../access/contract/roles.ts';
import { MEMBER_ROLES } from '../../../../../../access/contract/roles.ts';
import { t } from '../../../i18n.ts';
import { problemMessage } from '../../../problems.ts';
import {
  ConfirmDialog,
  Dialog,
  ErrorMessage,
  ScreenHeading,
  Select,
  Status,
  SubmitButton,
  useAction,
} from '../../../ui/index.ts';
import { RowButton, Rows } from '../../../ui/rows.tsx';
import { useList } from '../../../ui/use-list.ts';
import { useAccessForm } from '../access-form.tsx';
import type { Session } from '../api.ts';
import { EmailField, MemberNameField } from '../person-fields.tsx';
import { changeRole, inviteMember, listMembers, removeMember, type TeamMember } from './api.ts';
import { PendingInvitations } from './pending-invitations.tsx';

type Open = { kind: 'role' | 'remove'; member: TeamMember } | { kind: 'leave' };

/** Members: everyone sees the list and may leave; owners invite, change roles and remove. */
export function MembersScreen({ me, onLeft }: { me: Session; onLeft: () => void }) {
  const list = useList<TeamMember, Open>(listMembers);
  const { open, setOpen, done } = list;
  const owner = me.role === 'owner';
  const [invited, setInvited] = useState(0);

  return (
    <>
      <ScreenHeading>{t('members.title')}</ScreenHeading>
      <Status text={list.status} />
      <ErrorMessage text={list.error} />
      <Rows
        items={list.items}
        row={(member) => (
          <li key={member.id} class="row">
            <h2 class="row-title">
              {member.name}
              {member.id === me.member.id ? ` ${t('members.you')}` : ''}
            </h2>
            <dl class="facts">
              <dt>{t('field.email')}</dt>
              <dd>{member.email}</dd>
              <dt>{t('members.role')}</dt>
              <dd>{t(`role.${member.role}`)}</dd>
            </dl>
            <div class="actions">
              {owner ? (
                <RowButton
                  kind="secondary"
                  of={t('members.of', { name: member.name })}
                  onClick={() => setOpen({ kind: 'role', member })}
                >
                  {t('members.changeRole')}
                </RowButton>
              ) : null}
              {owner && member.id !== me.member.id ? (
                <RowButton kind="danger" of={member.name} onClick={() => setOpen({ kind: 'remove', member })}>
                  {t('members.remove')}
                </RowButton>
              ) : null}
              {member.id === me.member.id ? (
                <button type="button" class="button-danger" onClick={() => setOpen({ kind: 'leave' })}>
                  {t('members.leave')}
                </button>
              ) : null}
            </div>
          </li>
        )}
      />
      {owner ? (
        <InviteForm
          onInvited={(message) => {
            list.setStatus(message);
            setInvited((count) => count + 1);
          }}
        />
      ) : null}
      {me.role !== 'member' ? <PendingInvitations version={invited} /> : null}
      {open?.kind === 'role' ? (
        <RoleDialog member={open.member} onClose={() => setOpen(null)} onDone={done} />
      ) : null}
      {open?.kind === 'remove' || open?.kind === 'leave' ? (
        <RemoveDialog
          member={open.kind === 'remove' ? open.member : null}
          memberId={open.kind === 'remove' ? open.member.id : me.member.id}
          onClose={() => setOpen(null)}
          onDone={open.kind === 'leave' ? onLeft : done}
        />
      ) : null}
    </>
  );
}

function RoleSelect({ value, onValue }: { value: MemberRole; onValue: (role: MemberRole) => void }) {
  return (
    <Select
      label={t('members.role')}
      value={value}
      onValue={(role) => onValue(role as MemberRole)}
      options={MEMBER_ROLES.map((role) => ({ value: role, label: t(`role.${role}`) }))}
    />
  );
}

function InviteForm({ onInvited }: { onInvited: (message: string) => void }) {
  const form = useAccessForm({
    initial: { email: '', name: '', role: 'member' as MemberRole },
    checks: () => ({ email: 'email', name: 'required' }),
    send: inviteMember,
    onDone: (_, { email }) => {
      onInvited(t('members.invited', { email }));
      form.reset();
    },
    explain: (problem) => (problem.code === 'account_exists' ? t('members.accountExists') : null),
  });
  return (
    <section class="card section" aria-labelledby="invite-title">
      <h2 id="invite-title">{t('members.inviteTitle')}</h2>
      <p>{t('members.inviteIntro')}</p>
      <ErrorMessage text={form.error} />
      <form ref={form.fields.form} onSubmit={(event) => void form.submit(event)} noValidate>
        <EmailField autoComplete="off" {...form.field('email')} />
        <MemberNameField {...form.field('name')} />
        <RoleSelect value={form.values.role} onValue={(role) => form.set('role', role)} />
        <SubmitButton busy={form.busy}>{t('members.invite')}</SubmitButton>
      </form>
    </section>
  );
}

function RoleDialog({
  member,
  onClose,
  onDone,
}: {
  member: TeamMember;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const [role, setRole] = useState<MemberRole>(member.role);
  const { busy, error, setError, run } = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    const answer = await run(() => changeRole(member.id, role));
    if (answer === undefined) return;
    if (answer.ok) onDone(t('members.roleChanged', { name: member.name, role: t(`role.${role}`) }));
    else setError(problemMessage(answer.problem, t));
  };
  return (
    <Dialog title={t('members.roleTitle', { name: member.name })} onClose={onClose}>
      <ErrorMessage text={error} />
      <form onSubmit={(event) => void submit(event)}>
        <RoleSelect value={role} onValue={setRole} />
        <SubmitButton busy={busy}>{t('members.saveRole')}</SubmitButton>
      </form>
    </Dialog>
  );
}

function RemoveDialog({
  member,
  memberId,
  onClose,
  onDone,
}: {
  member: TeamMember | null;
  memberId: string;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  return (
    <ConfirmDialog
      title={member ? t('members.removeTitle', { name: member.name }) : t('members.leaveTitle')}
      intro={member ? t('members.removeIntro') : t('members.leaveIntro')}
      action={member ? t('members.remove') : t('members.leave')}
      danger
      act={() => removeMember(memberId)}
      onDone={() => onDone(member ? t('members.removed', { name: member.name }) : t('members.left'))}
      onClose={onClose}
    />
  );
}
