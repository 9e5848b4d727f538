/**
 * The signature: the agreement in full, then the signer's typed name and email (the name
 * is the signature), an optional drawing, and Sign (./signer-form.tsx). Once signed, the
 * field says who signed and when instead of asking again. The drawing is the field's draft
 * answer ({drawing: path data}) and is autosaved like any answer.
 */
import type { FieldProps } from './field-props.ts';
import { HelpText, RequiredMarker } from './FieldFrame.tsx';
import { configText, helpText } from './field-text.ts';
import { SignerForm } from './signer-form.tsx';

export function SignatureField(props: FieldProps) {
  const { field, ids, onboarding, t, formats } = props;
  const agreement = configText(field, 'agreement_text');
  const help = helpText(field);
  const signed = onboarding.signatures.filter((signature) => signature.field_id === field.id).at(-1);
  const titleId = `${ids.input}-title`;
  return (
    <section class={`field field--${field.type} signature`} aria-labelledby={titleId}>
      <div class="field__label-row">
        <h2 id={titleId} class="field__label signature__title">
          {field.label}
        </h2>
        {field.is_required ? <RequiredMarker t={t} /> : null}
      </div>
      <HelpText id={ids.help} text={help} />
      {agreement ? (
        <div class="signature__agreement" id={`${ids.input}-agreement`}>
          <h3 class="signature__agreement-title">{t('signature.agreement')}</h3>
          <p class="signature__agreement-text">{agreement}</p>
        </div>
      ) : null}
      {signed ? (
        <p class="signature__done" role="status">
          {t('signature.signed', { name: signed.signer_name, date: formats.date(signed.signed_at) })}
        </p>
      ) : (
        <SignerForm {...props} />
      )}
    </section>
  );
}
