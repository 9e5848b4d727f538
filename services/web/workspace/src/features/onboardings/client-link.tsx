import { useCallback, useEffect, useState } from 'preact/hooks';
import { call } from '../../../../shared/api/client.ts';
import { api, type ApiAnswer } from '../../api.ts';
import { formatDateTime } from '../../dates.ts';
import { t } from '../../i18n.ts';
import { problemMessage } from '../../problems.ts';
import { ErrorMessage, Field, Status } from '../../ui/index.ts';
import { RemindDialog } from './remind-dialog.tsx';

/** GET /workspace/v1/onboardings/{onboarding_id}/link: the client's current link, or why there is none. */
export type ClientLinkView = ApiAnswer<'/workspace/v1/onboardings/{onboarding_id}/link', 'get'>;

const getClientLink = (id: string) =>
  call(
    api.GET('/workspace/v1/onboardings/{onboarding_id}/link', {
      params: { path: { onboarding_id: id } },
    }),
  );

/** Pure: the next reminder may go only later (the limit was reached), and when. */
export function reminderWait(link: ClientLinkView, now: Date): string | null {
  const next = link.reminders.next_at;
  return next !== null && Date.parse(next) > now.getTime() ? next : null;
}

/**
 * The client's link on the onboarding's page: the link to copy (to send another way, or
 * to open the form as the client sees it), and "Send a reminder now" for a sent or
 * in-progress onboarding. `version` reads it again after the page's changes.
 */
export function ClientLink({
  onboardingId,
  version,
  onChanged,
}: {
  onboardingId: string;
  version: number;
  onChanged: () => void;
}) {
  const [link, setLink] = useState<ClientLinkView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const load = useCallback(async () => {
    const answer = await getClientLink(onboardingId);
    if (answer.ok) setLink(answer.data);
    else setError(problemMessage(answer.problem, t));
  }, [onboardingId]);
  useEffect(() => {
    void load();
  }, [load, version]);

  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      setStatus(t('clientLink.copied'));
    } catch {
      setStatus(t('clientLink.copyFailed'));
    }
  };
  const reminded = (answer: ClientLinkView) => {
    setLink(answer);
    setOpen(false);
    setStatus(t('remind.sent'));
    onChanged();
  };

  const wait = link ? reminderWait(link, new Date()) : null;
  return (
    <section class="section" aria-labelledby="client-link-title">
      <h2 id="client-link-title">{t('clientLink.title')}</h2>
      <ErrorMessage text={error} />
      {link === null ? (
        error ? null : (
          <p class="loading">{t('app.loading')}</p>
        )
      ) : link.url ? (
        <>
          <Field
            label={t('clientLink.label')}
            hint={t(link.pin_required ? 'clientLink.hintPin' : 'clientLink.hint')}
            readOnly
            value={link.url}
            onValue={() => undefined}
            class="secret"
            spellcheck={false}
            onFocus={(event) => (event.target as HTMLInputElement).select()}
          />
          <div class="actions">
            <button type="button" class="button-secondary" onClick={() => void copy(link.url!)}>
              {t('clientLink.copy')}
            </button>
            {link.reminders.next_at !== null ? (
              <button type="button" class="button-primary" onClick={() => setOpen(true)}>
                {t('remind.open')}
              </button>
            ) : null}
          </div>
          {wait ? (
            <p>{t('remind.wait', { time: formatDateTime(wait), limit: link.reminders.limit })}</p>
          ) : null}
        </>
      ) : (
        <p>{t(`clientLink.none.${link.reason ?? 'closed'}`)}</p>
      )}
      <Status text={status} />
      {open ? (
        <RemindDialog onboardingId={onboardingId} onClose={() => setOpen(false)} onSent={reminded} />
      ) : null}
    </section>
  );
}
