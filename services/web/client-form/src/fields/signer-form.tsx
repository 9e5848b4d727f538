/**
 * The signer's part of a signature field: the typed name (the signature), the email it is
 * signed as (the invitee's own, shown, not asked: docs/decisions/0079; asked only when the
 * portal does not name it), an optional drawing (the field's draft answer, {drawing: path
 * data}, autosaved like any answer), and Sign. Enter in the name or email signs, as in a
 * form of its own.
 */
import { useState } from 'preact/hooks';
import { answerProblem, type AnswerProblem } from '../../../../templates/contract/field-catalogue.ts';
import { refusalText } from '../problems.ts';
import type { FieldProps } from './field-props.ts';
import { ErrorText } from './FieldFrame.tsx';
import { describedBy, helpText } from './field-text.ts';
import { refusalOf } from './file-rules.ts';
import { SignaturePad } from './SignaturePad.tsx';

const EMAIL_FIELD = { id: 'signer_email', type: 'email', label: '', is_required: true, config: null };

function drawingOf(value: unknown): string | null {
  const drawing = (value as { drawing?: unknown } | null | undefined)?.drawing;
  return typeof drawing === 'string' && drawing !== '' ? drawing : null;
}

/** The signer's name and email, their problems, and the signing itself. */
function useSigner(
  { field, portal, refresh, t, formats, onboarding }: FieldProps,
  ids: { name: string; email: string },
) {
  const invitee = onboarding.signer_email ?? null;
  const [name, setName] = useState('');
  const [email, setEmail] = useState(invitee ?? '');
  const [nameProblem, setNameProblem] = useState<AnswerProblem | null>(null);
  const [emailProblem, setEmailProblem] = useState<AnswerProblem | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [signing, setSigning] = useState(false);

  const sign = async () => {
    const nameCheck = name.trim() === '' ? { code: 'required' } : null;
    const emailCheck = answerProblem(EMAIL_FIELD, email);
    setNameProblem(nameCheck);
    setEmailProblem(emailCheck);
    setFailure(null);
    if (nameCheck || emailCheck) {
      document.getElementById(nameCheck ? ids.name : ids.email)?.focus();
      return;
    }
    setSigning(true);
    try {
      await portal.sign(field.id, { signer_name: name.trim(), signer_email: email.trim() });
      await refresh().catch(() => undefined);
    } catch (error) {
      setFailure(refusalText(refusalOf(error, { max_files: 0, max_size_bytes: 0 }), t, formats));
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

  const typeName = (text: string) => {
    setName(text);
    setNameProblem(null);
  };
  const typeEmail = (text: string) => {
    setEmail(text);
    setEmailProblem(null);
  };
  return {
    invitee,
    name,
    email,
    nameProblem,
    emailProblem,
    failure,
    signing,
    sign,
    signOnEnter,
    typeName,
    typeEmail,
  };
}

export function SignerForm(props: FieldProps) {
  const { field, value, onChange, problem, ids, t, formats } = props;
  const help = helpText(field);
  const nameId = ids.input;
  const emailId = `${ids.input}-email`;
  const emailErrorId = `${ids.error}-email`;
  const signer = useSigner(props, { name: nameId, email: emailId });
  return (
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
          value={signer.name}
          aria-required="true"
          aria-invalid={signer.nameProblem ? 'true' : undefined}
          aria-describedby={describedBy(help && ids.help, (signer.nameProblem || problem) && ids.error)}
          onKeyDown={signer.signOnEnter}
          onInput={(event) => signer.typeName(event.currentTarget.value)}
        />
        <ErrorText id={ids.error} problem={signer.nameProblem ?? problem} t={t} formats={formats} />
      </div>
      {signer.invitee !== null ? (
        <p class="signature__email" id={emailId}>
          {t('signature.signingAs', { email: signer.invitee })}
        </p>
      ) : (
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
            value={signer.email}
            aria-required="true"
            aria-invalid={signer.emailProblem ? 'true' : undefined}
            aria-describedby={describedBy(signer.emailProblem && emailErrorId)}
            onKeyDown={signer.signOnEnter}
            onInput={(event) => signer.typeEmail(event.currentTarget.value)}
          />
          <ErrorText id={emailErrorId} problem={signer.emailProblem} t={t} formats={formats} />
        </div>
      )}
      {field.config?.allow_drawing !== false ? (
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
        disabled={signer.signing}
        onClick={() => void signer.sign()}
      >
        {signer.signing ? t('signature.signing') : t('signature.sign')}
      </button>
      <p class="field__error" role="alert">
        {signer.failure}
      </p>
    </div>
  );
}
