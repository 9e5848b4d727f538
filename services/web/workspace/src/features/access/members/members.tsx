import { useCallback, useEffect, useState } from 'preact/hooks';
import type { Member, Role, SignedIn } from '../../../api.ts';
import { changeRole, inviteMember, listMembers, removeMember } from './api.ts';
import { t } from '../../../i18n.ts';
import { MEMBER_ROLES } from '../../../../../../access/contract/roles.ts';
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
  useFieldCheck,
} from '../../../ui/index.ts';
import { fieldErrors } from '../../../validation.ts';
import { PendingInvitations } from './pending-invitations.tsx';
import { EmailField, NameField } from '../person-fields.tsx';

type Open = { kind: 'role' | 'remove'; member: Member } | { kind: 'leave' } | null;

/** Members: everyone sees the list and may leave; owners invite, change roles and remove. */
export function MembersScreen({ me, onLeft }: { me: SignedIn; onLeft: () => void }) {
  const [members, setMembers] = useState<Member[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [open, setOpen] = useState<Open>(null);
  const owner = me.role === 'owner';
  const [invited, setInvited] = useState(0);

  const load = useCallback(async () => {
    const answer = await listMembers();
    if (answer.ok) setMembers(answer.data.data);
    else setError(problemMessage(answer.problem, t));
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const done = (message: string) => {
    setOpen(null);
    setError(null);
    setStatus(message);
    void load();
  };

  return (
    <>
      <ScreenHeading>{t('members.title')}</ScreenHeading>
      <Status text={status} />
      <ErrorMessage text={error} />
      {members === null ? (
        <p class="loading">{t('app.loading')}</p>
      ) : (
        <ul class="rows">
          {members.map((member) => (
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
                  <button
                    type="button"
                    class="button-secondary"
                    onClick={() => setOpen({ kind: 'role', member })}
                  >
                    {t('members.changeRole')}
                    <span class="visually-hidden"> {t('members.of', { name: member.name })}</span>
                  </button>
                ) : null}
                {owner && member.id !== me.member.id ? (
                  <button
                    type="button"
                    class="button-danger"
                    onClick={() => setOpen({ kind: 'remove', member })}
                  >
                    {t('members.remove')}
                    <span class="visually-hidden"> {member.name}</span>
                  </button>
                ) : null}
                {member.id === me.member.id ? (
                  <button type="button" class="button-danger" onClick={() => setOpen({ kind: 'leave' })}>
                    {t('members.leave')}
                  </button>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
      {owner ? (
        <InviteForm
          onInvited={(message) => {
            setStatus(message);
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

function RoleSelect({ value, onValue }: { value: Role; onValue: (role: Role) => void }) {
  return (
    <Select
      label={t('members.role')}
      value={value}
      onValue={(role) => onValue(role as Role)}
      options={MEMBER_ROLES.map((role) => ({ value: role, label: t(`role.${role}`) }))}
    />
  );
}

function InviteForm({ onInvited }: { onInvited: (message: string) => void }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('member');
  const { busy, error, setError, run } = useAction();
  const fields = useFieldCheck();
  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    const found = fieldErrors(
      { email: { kind: 'email', value: email }, name: { kind: 'required', value: name } },
      t,
    );
    if (!fields.check(found)) return setError(null);
    const answer = await run(() => inviteMember({ email, name, role }));
    if (answer === undefined) return;
    if (!answer.ok && answer.problem.code === 'account_exists') return setError(t('members.accountExists'));
    if (!answer.ok) return setError(problemMessage(answer.problem, t));
    onInvited(t('members.invited', { email }));
    setEmail('');
    setName('');
    setRole('member');
  };
  return (
    <section class="card section" aria-labelledby="invite-title">
      <h2 id="invite-title">{t('members.inviteTitle')}</h2>
      <p>{t('members.inviteIntro')}</p>
      <ErrorMessage text={error} />
      <form ref={fields.form} onSubmit={(event) => void submit(event)} noValidate>
        <EmailField autoComplete="off" value={email} onValue={setEmail} error={fields.errors.email} />
        <NameField
          label={t('field.name')}
          autoComplete="off"
          value={name}
          onValue={setName}
          error={fields.errors.name}
        />
        <RoleSelect value={role} onValue={setRole} />
        <SubmitButton busy={busy}>{t('members.invite')}</SubmitButton>
      </form>
    </section>
  );
}

function RoleDialog({
  member,
  onClose,
  onDone,
}: {
  member: Member;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const [role, setRole] = useState<Role>(member.role);
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
  member: Member | null;
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
