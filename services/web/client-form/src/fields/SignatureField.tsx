/**
 * The signature: the agreement in full, then the signer's typed name and email (the name
 * is the signature), an optional drawing, and Sign. Once signed, the field says who signed
 * and when instead of asking again. The drawing is the field's draft answer
 * ({drawing: path data}) and is autosaved like any answer.
 */
import { useState } from 'preact/hooks';
import { answerProblem, type AnswerProblem } from '../../../../templates/contract/field-catalogue.ts';
import type { FieldProps } from './field-props.ts';
import { ErrorText, RequiredMarker } from './FieldFrame.tsx';
import { configText, describedBy, helpText } from './field-text.ts';
import { problemText } from '../problems.ts';
import { refusalOf } from './file-rules.ts';
import { SignaturePad } from './SignaturePad.tsx';

const EMAIL_FIELD = { id: 'signer_email', type: 'email', label: '', is_required: true, config: null };

function drawingOf(value: unknown): string | null {
  const drawing = (value as { drawing?: unknown } | null | undefined)?.drawing;
  return typeof drawing === 'string' && drawing !== '' ? drawing : null;
}

export function SignatureField(props: FieldProps) {
  const { field, value, onChange, problem, ids, portal, onboarding, refresh, t, formats } = props;
  const agreement = configText(field, 'agreement_text');
  const help = helpText(field);
  const signed = onboarding.signatures.filter((signature) => signature.field_id === field.id).at(-1);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [nameProblem, setNameProblem] = useState<AnswerProblem | null>(null);
  const [emailProblem, setEmailProblem] = useState<AnswerProblem | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [signing, setSigning] = useState(false);

  const nameId = ids.input;
  const emailId = `${ids.input}-email`;
  const nameErrorId = ids.error;
  const emailErrorId = `${ids.error}-email`;
  const agreementId = `${ids.input}-agreement`;
  const allowDrawing = field.config?.allow_drawing !== false;

  const sign = async () => {
    const nameCheck = name.trim() === '' ? { code: 'required' } : null;
    const emailCheck = answerProblem(EMAIL_FIELD, email);
    setNameProblem(nameCheck);
    setEmailProblem(emailCheck);
    setFailure(null);
    if (nameCheck || emailCheck) {
      document.getElementById(nameCheck ? nameId : emailId)?.focus();
      return;
    }
    setSigning(true);
    try {
      await portal.sign(field.id, { signer_name: name.trim(), signer_email: email.trim() });
      await refresh().catch(() => undefined);
    } catch (error) {
      const refusal = refusalOf(error, { max_files: 0, max_size_bytes: 0 });
      setFailure(
        'problem' in refusal
          ? problemText(refusal.problem, t, formats)
          : refusal.message === 'errors.busy'
            ? t(refusal.message, { seconds: refusal.seconds })
            : t(refusal.message),
      );
    } finally {
      setSigning(false);
    }
  };

  // Enter in the name or email signs, as in a form of its own, instead of moving to the next step.
  const signOnEnter = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !event.isComposing) {
      event.preventDefault();
      if (!signing) void sign();
    }
  };

  const titleId = `${ids.input}-title`;
  return (
    <section class={`field field--${field.type} signature`} aria-labelledby={titleId}>
      <div class="field__label-row">
        <h2 id={titleId} class="field__label signature__title">
          {field.label}
        </h2>
        {field.is_required ? <RequiredMarker t={t} /> : null}
      </div>
      {help ? (
        <p id={ids.help} class="field__help">
          {help}
        </p>
      ) : null}
      {agreement ? (
        <div class="signature__agreement" id={agreementId}>
          <h3 class="signature__agreement-title">{t('signature.agreement')}</h3>
          <p class="signature__agreement-text">{agreement}</p>
        </div>
      ) : null}
      {signed ? (
        <p class="signature__done" role="status">
          {t('signature.signed', { name: signed.signer_name, date: formats.date(signed.signed_at) })}
        </p>
      ) : (
        <div class="signature__form">
          <div class="field__control">
            <label class="field__label" for={nameId}>
              {t('signature.typeName')}
            </label>
            <input
              id={nameId}
              class="field__input signature__name"
              type="text"
              autocomplete="name"
              maxLength={200}
              value={name}
              aria-required="true"
              aria-invalid={nameProblem ? 'true' : undefined}
              aria-describedby={describedBy(help && ids.help, (nameProblem || problem) && nameErrorId)}
              onKeyDown={signOnEnter}
              onInput={(event) => {
                setName(event.currentTarget.value);
                setNameProblem(null);
              }}
            />
            <ErrorText id={nameErrorId} problem={nameProblem ?? problem} t={t} formats={formats} />
          </div>
          <div class="field__control">
            <label class="field__label" for={emailId}>
              {t('signature.email')}
            </label>
            <input
              id={emailId}
              class="field__input signature__email"
              type="email"
              autocomplete="email"
              inputMode="email"
              spellcheck={false}
              maxLength={254}
              value={email}
              aria-required="true"
              aria-invalid={emailProblem ? 'true' : undefined}
              aria-describedby={describedBy(emailProblem && emailErrorId)}
              onKeyDown={signOnEnter}
              onInput={(event) => {
                setEmail(event.currentTarget.value);
                setEmailProblem(null);
              }}
            />
            <ErrorText id={emailErrorId} problem={emailProblem} t={t} formats={formats} />
          </div>
          {allowDrawing ? (
            <SignaturePad
              path={drawingOf(value)}
              onChange={(path) => onChange(path === null ? null : { drawing: path })}
              idPrefix={ids.input}
              t={t}
            />
          ) : null}
          <p class="signature__agree">{t('signature.agree')}</p>
          <button
            type="button"
            class="button primary signature__sign"
            disabled={signing}
            onClick={() => void sign()}
          >
            {signing ? t('signature.signing') : t('signature.sign')}
          </button>
          <p class="field__error" role="alert">
            {failure}
          </p>
        </div>
      )}
    </section>
  );
}
