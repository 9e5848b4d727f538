/**
 * The frame around every answerable field: its label (or legend for a group), the
 * required marker, the help text and the error message. The label holds the field's label
 * and nothing else, so each control's accessible name is exactly that label; the marker
 * sits beside it, shown as a word to sighted people and read as "required" by screen
 * readers.
 */
import type { ComponentChildren } from 'preact';
import type { AnswerProblem } from '../../../../templates/contract/field-catalogue.ts';
import type { Formats, Translate } from '../i18n.ts';
import type { FieldIds, FieldProps, LocalizedField } from './field-props.ts';
import { describedBy, helpText } from './field-text.ts';
import { problemText } from '../problems.ts';

export function RequiredMarker({ t }: { t: Translate }) {
  return (
    <span class="field__required">
      <span aria-hidden="true">{t('field.requiredMarker')}</span>
      <span class="field-sr-only">{t('field.required')}</span>
    </span>
  );
}

/**
 * The error element. It is not a live region: on a step's submit the page's error summary
 * takes focus and speaks for every field, and each control names its message through
 * aria-describedby. A component's own check while typing announces through LiveProblem.
 */
export function ErrorText({
  id,
  problem,
  t,
  formats,
}: {
  id: string;
  problem: AnswerProblem | null;
  t: Translate;
  formats: Formats;
}) {
  return (
    <p id={id} class="field__error">
      {problem ? problemText(problem, t, formats) : null}
    </p>
  );
}

/** Says a component's own problem (found as the client leaves a control) politely, once it appears. */
export function LiveProblem({
  problem,
  t,
  formats,
}: {
  problem: AnswerProblem | null;
  t: Translate;
  formats: Formats;
}) {
  return (
    <p class="field-sr-only" aria-live="polite">
      {problem ? problemText(problem, t, formats) : null}
    </p>
  );
}

export interface FrameProps {
  field: LocalizedField;
  ids: FieldIds;
  /** The problem shown: the shell's, or the component's own check of what is being typed. */
  problem: AnswerProblem | null;
  t: Translate;
  formats: Formats;
  /**
   * A fieldset with the label as its legend: a radio group (role radiogroup, which says
   * required and invalid itself) or a checkbox group (which hears "required" in its description).
   */
  group?: 'radios' | 'checkboxes';
  children: ComponentChildren;
}

/** A field's help text under its label, when it has one. */
export function HelpText({ id, text }: { id: string; text: string | null | undefined }) {
  return text ? (
    <p id={id} class="field__help">
      {text}
    </p>
  ) : null;
}

export function FieldFrame({ field, ids, problem, t, formats, group, children }: FrameProps) {
  const help = helpText(field);
  const helpElement = <HelpText id={ids.help} text={help} />;
  const error = <ErrorText id={ids.error} problem={problem} t={t} formats={formats} />;
  if (group) {
    const radios = group === 'radios';
    const requiredId = field.is_required && !radios ? `${ids.input}-required` : null;
    return (
      <fieldset
        class={`field field--${field.type} field__group`}
        aria-describedby={describedBy(requiredId, help && ids.help, problem && ids.error)}
        role={radios ? 'radiogroup' : undefined}
        aria-required={radios && field.is_required ? 'true' : undefined}
        aria-invalid={radios && problem ? 'true' : undefined}
      >
        <legend class="field__legend">
          <span class="field__label-text">{field.label}</span>
          {field.is_required ? (
            <span class="field__required" aria-hidden="true">
              {t('field.requiredMarker')}
            </span>
          ) : null}
        </legend>
        {requiredId ? (
          <span id={requiredId} class="field-sr-only">
            {t('field.required')}
          </span>
        ) : null}
        {helpElement}
        {children}
        {error}
      </fieldset>
    );
  }
  return (
    <div class={`field field--${field.type}`}>
      <div class="field__label-row">
        <label class="field__label" for={ids.input}>
          {field.label}
        </label>
        {field.is_required ? <RequiredMarker t={t} /> : null}
      </div>
      {helpElement}
      {children}
      {error}
    </div>
  );
}

/** The attributes of a field's text control (an input or a textarea): its name, text, placeholder and aria. */
export function textControl(
  { field, value, problem, ids }: Pick<FieldProps, 'field' | 'value' | 'problem' | 'ids'>,
  ...describedBy: (string | null | undefined | false)[]
) {
  return {
    name: field.id,
    value: typeof value === 'string' ? value : '',
    placeholder: typeof field.config?.placeholder === 'string' ? field.config.placeholder : undefined,
    ...controlAria(field, ids, problem, ...describedBy),
  };
}

/** The aria attributes of a field's control. */
export function controlAria(
  field: LocalizedField,
  ids: FieldIds,
  problem: AnswerProblem | null,
  ...more: (string | null | undefined | false)[]
) {
  return {
    id: ids.input,
    'aria-describedby': describedBy(helpText(field) && ids.help, ...more, problem && ids.error),
    'aria-invalid': problem ? ('true' as const) : undefined,
    'aria-required': field.is_required ? ('true' as const) : undefined,
  };
}
