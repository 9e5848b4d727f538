import { useEffect, useId, useState } from 'preact/hooks';
import type { Member } from '../../api.ts';
import { listMembers } from '../access/members/api.ts';
import { listTemplates, type TemplateChoice } from '../templates/api.ts';
import { createRule, updateRule } from './api.ts';
import { t } from '../../i18n.ts';
import {
  actionOf,
  draftOf,
  placeholderErrors,
  recipientText,
  requiredOf,
  type Placeholder,
  type Rule,
  type RuleDraft,
} from './rules.ts';
import { PlaceholderList, usePlaceholderInsert } from './placeholder-list.tsx';
import { RuleTrial } from './rule-trial.tsx';
import {
  AUTOMATION_ACTION_TYPES,
  AUTOMATION_TRIGGERS,
  RULE_LIMITS,
} from '../../../../../automation/contract/rules.ts';
import { Dialog, ErrorMessage, Field, FieldFrame, Select, useAction, useFieldCheck } from '../../ui/index.ts';
import { fieldErrors, type FieldErrors } from '../../validation.ts';

/**
 * Create or edit a rule: name, trigger (fixed once created), action and its fields, with the
 * placeholders beside the texts. A rule naming a former member or a deleted template says so
 * and is saved only with a current choice (the API's message shows when not).
 */
export function RuleDialog({
  rule,
  placeholders,
  onClose,
  onDone,
}: {
  rule: Rule | null;
  placeholders: Placeholder[];
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const [draft, setDraft] = useState<RuleDraft>(() => draftOf(rule));
  const [members, setMembers] = useState<Member[]>([]);
  const [templates, setTemplates] = useState<TemplateChoice[] | null>(null);
  const { busy, error, setError, run, fail } = useAction();
  const fields = useFieldCheck();
  const set = (change: Partial<RuleDraft>) => setDraft((current) => ({ ...current, ...change }));

  useEffect(() => {
    void listMembers().then((answer) => {
      if (answer.ok) setMembers(answer.data.data);
    });
    void listTemplates().then((answer) => {
      if (answer.ok) setTemplates(answer.data.data);
    });
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    if (!fields.check(fieldErrors(requiredOf(draft), t))) return setError(null);
    const action = actionOf(draft);
    const answer = await run(() =>
      rule
        ? updateRule(rule.id, { name: draft.name.trim(), action })
        : createRule({ name: draft.name.trim(), trigger: draft.trigger, action, enabled: draft.enabled }),
    );
    if (answer === undefined) return;
    if (!answer.ok) {
      const refused = placeholderErrors(answer.problem, t);
      if (refused) return (setError(null), void fields.check(refused));
      return fail(answer.problem);
    }
    onDone(t(rule ? 'automations.saved' : 'automations.created', { name: draft.name.trim() }));
  };

  return (
    <Dialog
      title={rule ? t('automations.editTitle', { name: rule.name }) : t('automations.createTitle')}
      onClose={onClose}
    >
      <ErrorMessage text={error} />
      <form ref={fields.form} onSubmit={(event) => void submit(event)} noValidate>
        <Field
          label={t('automations.name')}
          autoComplete="off"
          required
          maxLength={RULE_LIMITS.name}
          value={draft.name}
          onValue={(name) => set({ name })}
          error={fields.errors.name}
        />
        {rule ? (
          <dl class="facts">
            <dt>{t('automations.trigger')}</dt>
            <dd>{t(`trigger.${rule.trigger}`)}</dd>
          </dl>
        ) : (
          <Select
            label={t('automations.trigger')}
            value={draft.trigger}
            onValue={(trigger) => set({ trigger: trigger as RuleDraft['trigger'] })}
            options={AUTOMATION_TRIGGERS.map((value) => ({ value, label: t(`trigger.${value}`) }))}
          />
        )}
        <Select
          label={t('automations.action')}
          value={draft.type}
          onValue={(type) => set({ type: type as RuleDraft['type'] })}
          options={AUTOMATION_ACTION_TYPES.map((value) => ({ value, label: t(`action.${value}`) }))}
        />
        <p class="hint" id="rule-recipient">
          <strong>{t('automations.recipient')}</strong> {recipientText(draft, members, t)}
        </p>
        <ActionFields
          rule={rule}
          draft={draft}
          set={set}
          errors={fields.errors}
          members={members}
          templates={templates}
          placeholders={placeholders}
        />
        <RuleTrial draft={draft} onFieldErrors={(found) => void fields.check(found)} />
        {rule ? null : (
          <div class="field check">
            <label>
              <input
                type="checkbox"
                checked={draft.enabled}
                onChange={(event) => set({ enabled: (event.target as HTMLInputElement).checked })}
              />{' '}
              {t('automations.enabled')}
            </label>
          </div>
        )}
        <div class="actions">
          <button type="submit" class="button-primary" aria-disabled={busy || undefined}>
            {t('automations.save')}
          </button>
          <button type="button" class="button-secondary" onClick={onClose}>
            {t('dialog.cancel')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** The fields of the rule's action, by its type, with the placeholders beside the texts. */
function ActionFields({
  rule,
  draft,
  set,
  errors,
  members,
  templates,
  placeholders,
}: {
  rule: Rule | null;
  draft: RuleDraft;
  set: (change: Partial<RuleDraft>) => void;
  errors: FieldErrors;
  members: Member[];
  templates: TemplateChoice[] | null;
  placeholders: Placeholder[];
}) {
  const placeholdersId = useId();
  const { ids, setTarget, insert } = usePlaceholderInsert(draft, set);
  const former = rule?.action.type === 'notify_member' && rule.action.member_status === 'former';
  const deletedTemplate =
    rule?.action.type === 'create_onboarding' && rule.action.template_status === 'deleted';
  const texts = draft.type === 'send_email' || draft.type === 'notify_member';
  return (
    <>
      {draft.type === 'send_email' ? (
        <>
          <TextField
            id={ids.subject}
            onFocus={() => setTarget('subject')}
            label={t('automations.subject')}
            value={draft.subject}
            onValue={(subject) => set({ subject })}
            maxLength={RULE_LIMITS.subject}
            describedBy={placeholdersId}
            error={errors.subject}
          />
          <TextField
            id={ids.body}
            onFocus={() => setTarget('body')}
            label={t('automations.body')}
            multiline
            value={draft.body}
            onValue={(body) => set({ body })}
            maxLength={RULE_LIMITS.body}
            describedBy={placeholdersId}
            error={errors.body}
          />
        </>
      ) : null}
      {draft.type === 'send_webhook' ? (
        <Field
          label={t('automations.url')}
          type="url"
          inputMode="url"
          autoComplete="off"
          required
          maxLength={RULE_LIMITS.url}
          value={draft.url}
          onValue={(url) => set({ url })}
          hint={t('automations.urlHint')}
          error={errors.url}
        />
      ) : null}
      {draft.type === 'create_onboarding' ? (
        <>
          {deletedTemplate ? <p class="notice">{t('automations.deletedTemplateNotice')}</p> : null}
          {templates !== null && templates.length === 0 ? (
            <p class="notice">{t('automations.noTemplates')}</p>
          ) : null}
          <Select
            label={t('automations.template')}
            value={draft.template}
            onValue={(template) => set({ template })}
            error={errors.template}
            options={[
              { value: '', label: t('automations.chooseTemplate') },
              ...(deletedTemplate && rule?.action.type === 'create_onboarding'
                ? [{ value: rule.action.template_id, label: t('automations.deletedTemplate') }]
                : []),
              ...(templates ?? []).map((template) => ({ value: template.id, label: template.name })),
            ]}
          />
        </>
      ) : null}
      {draft.type === 'notify_member' ? (
        <>
          {former ? <p class="notice">{t('automations.formerMemberNotice')}</p> : null}
          <Select
            label={t('automations.member')}
            value={draft.member}
            onValue={(member) => set({ member })}
            error={errors.member}
            options={[
              { value: '', label: t('automations.chooseMember') },
              ...(former && rule?.action.type === 'notify_member'
                ? [{ value: rule.action.member_id, label: t('automations.formerMember') }]
                : []),
              ...members.map((member) => ({ value: member.id, label: `${member.name} (${member.email})` })),
            ]}
          />
          <TextField
            id={ids.message}
            onFocus={() => setTarget('message')}
            label={t('automations.message')}
            multiline
            value={draft.message}
            onValue={(message) => set({ message })}
            maxLength={RULE_LIMITS.message}
            describedBy={placeholdersId}
            error={errors.message}
          />
        </>
      ) : null}
      {texts ? <PlaceholderList id={placeholdersId} placeholders={placeholders} onInsert={insert} /> : null}
    </>
  );
}

/** A labelled text (one line or several) described by the placeholder list and its error. */
function TextField({
  id,
  onFocus,
  label,
  value,
  onValue,
  multiline,
  maxLength,
  describedBy,
  error,
}: {
  id: string;
  onFocus: () => void;
  label: string;
  value: string;
  onValue: (value: string) => void;
  multiline?: boolean;
  maxLength: number;
  describedBy: string;
  error?: string | null;
}) {
  const common = {
    id,
    value,
    onFocus,
    maxLength,
    required: true,
    'aria-invalid': error ? ('true' as const) : undefined,
    'aria-describedby': [error ? `${id}-error` : '', describedBy].filter(Boolean).join(' '),
    onInput: (event: Event) => onValue((event.target as HTMLInputElement).value),
  };
  return (
    <FieldFrame id={id} label={label} error={error}>
      {multiline ? <textarea {...common} rows={6} /> : <input {...common} autoComplete="off" />}
    </FieldFrame>
  );
}
