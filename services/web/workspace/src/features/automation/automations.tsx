import { useEffect, useState } from 'preact/hooks';
import type { Session } from '../access/api.ts';
import { deleteRule, listPlaceholders, listRules, updateRule } from './api.ts';
import { t } from '../../i18n.ts';
import { problemMessage } from '../../problems.ts';
import { ConfirmDialog, ErrorMessage, ScreenHeading, Status, useAction } from '../../ui/index.ts';
import { RowButton, Rows } from '../../ui/rows.tsx';
import { useList } from '../../ui/use-list.ts';
import { hasAutomations, type Placeholder, type Rule } from './rules.ts';
import { RuleDialog } from './rule-dialog.tsx';

type Open = { kind: 'create' } | { kind: 'edit' | 'delete'; rule: Rule };

/**
 * Automations (owners and admins): the team's rules with their latest-run line, created and
 * edited in a dialog, switched on and off, deleted after confirmation. Without automations in
 * the plan, rules can only be switched off and deleted (the page says why).
 */
export function AutomationsScreen({ me }: { me: Session }) {
  const { items: rules, error, setError, status, open, setOpen, done } = useList<Rule, Open>(listRules);
  const [placeholders, setPlaceholders] = useState<Placeholder[]>([]);
  const { busy, run } = useAction();
  const allowed = hasAutomations(me.team.plan);

  useEffect(() => {
    void listPlaceholders().then((answer) => {
      if (answer.ok) setPlaceholders(answer.data.data);
    });
  }, []);

  const toggle = async (rule: Rule) => {
    if (busy) return;
    const answer = await run(() => {
      setError(null);
      return updateRule(rule.id, { enabled: !rule.enabled });
    });
    if (answer === undefined) return;
    if (!answer.ok) return setError(problemMessage(answer.problem, t));
    done(t(rule.enabled ? 'automations.switchedOff' : 'automations.switchedOn', { name: rule.name }));
  };

  return (
    <>
      <ScreenHeading>{t('automations.title')}</ScreenHeading>
      <p>{t('automations.intro')}</p>
      {allowed ? null : <p class="notice">{t('automations.noPlan')}</p>}
      <Status text={status} />
      <ErrorMessage text={error} />
      {allowed ? (
        <p>
          <button type="button" class="button-primary" onClick={() => setOpen({ kind: 'create' })}>
            {t('automations.create')}
          </button>
        </p>
      ) : null}
      <Rows
        items={rules}
        none={t('automations.none')}
        row={(rule) => (
          <li key={rule.id} class="row">
            <h2 class="row-title">{rule.name}</h2>
            <dl class="facts">
              <dt>{t('automations.trigger')}</dt>
              <dd>{t(`trigger.${rule.trigger}`)}</dd>
              <dt>{t('automations.action')}</dt>
              <dd>{t(`action.${rule.action.type}`)}</dd>
              <dt>{t('automations.state')}</dt>
              <dd>{t(rule.enabled ? 'automations.on' : 'automations.off')}</dd>
              <dt>{t('automations.latestRun')}</dt>
              <dd>{rule.latest_run}</dd>
            </dl>
            {rule.action_warning ? (
              <p class="notice">{t('automations.warning', { warning: rule.action_warning })}</p>
            ) : null}
            <div class="actions">
              {allowed ? (
                <RowButton kind="secondary" of={rule.name} onClick={() => setOpen({ kind: 'edit', rule })}>
                  {t('automations.edit')}
                </RowButton>
              ) : null}
              {allowed || rule.enabled ? (
                <RowButton kind="secondary" of={rule.name} busy={busy} onClick={() => void toggle(rule)}>
                  {t(rule.enabled ? 'automations.switchOff' : 'automations.switchOn')}
                </RowButton>
              ) : null}
              <RowButton kind="danger" of={rule.name} onClick={() => setOpen({ kind: 'delete', rule })}>
                {t('automations.delete')}
              </RowButton>
            </div>
          </li>
        )}
      />
      {open?.kind === 'create' || open?.kind === 'edit' ? (
        <RuleDialog
          rule={open.kind === 'edit' ? open.rule : null}
          placeholders={placeholders}
          onClose={() => setOpen(null)}
          onDone={done}
        />
      ) : null}
      {open?.kind === 'delete' ? (
        <DeleteDialog rule={open.rule} onClose={() => setOpen(null)} onDone={done} />
      ) : null}
    </>
  );
}

function DeleteDialog({
  rule,
  onClose,
  onDone,
}: {
  rule: Rule;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  return (
    <ConfirmDialog
      title={t('automations.deleteTitle', { name: rule.name })}
      intro={t('automations.deleteIntro')}
      action={t('automations.delete')}
      danger
      act={() => deleteRule(rule.id)}
      onDone={() => onDone(t('automations.deleted', { name: rule.name }))}
      onClose={onClose}
    />
  );
}
