import { useState } from 'preact/hooks';
import { t } from '../i18n.ts';
import { Field } from './field.tsx';
import { Status } from './status.tsx';

/** A secret in a read-only field (selected on focus), a Copy button and what Copy did. */
export function SecretCopy({ label, secret }: { label: string; secret: string }) {
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(t('key.copied'));
    } catch {
      setCopied(t('key.copyFailed'));
    }
  };
  return (
    <>
      <Field
        label={label}
        readOnly
        value={secret}
        onValue={() => undefined}
        class="secret"
        spellcheck={false}
        onFocus={(event) => (event.target as HTMLInputElement).select()}
      />
      <button type="button" class="button-primary" onClick={() => void copy()}>
        {t('key.copy')}
      </button>
      <Status text={copied} />
    </>
  );
}
