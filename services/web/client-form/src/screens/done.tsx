/**
 * The last screen, after the final Submit and whenever a completed link is opened later: the
 * thanks, when the answers were sent, a copy of them by step (read-only, as the Review shows
 * them), and the signed PDF once the portal says it is ready (document_ready).
 */
import { useMemo } from 'preact/hooks';
import type { PortalOnboarding } from '../api.ts';
import { displayAnswer } from '../display.ts';
import type { LocalizedField } from '../fields/field-props.ts';
import { formSteps, latestAnswers, visibleSteps } from '../form-model.ts';
import type { Formats, Translate } from '../i18n.ts';
import { pageTitle, ScreenHeading } from './heading.tsx';

interface DoneProps {
  team: string;
  /** When the answers were sent: the final Submit's time, else the newest answer's. */
  at: string | null;
  onboarding: PortalOnboarding | null;
  token: string | null;
  t: Translate;
  formats: Formats;
  locale: string;
}

/** The newest time an answer was saved: when a completed form was last sent. */
const newestAnswerAt = (onboarding: PortalOnboarding | null) =>
  (onboarding?.responses ?? []).reduce<string | null>(
    (newest, response) => (newest === null || response.created_at > newest ? response.created_at : newest),
    null,
  );

/** The answers as the client sent them, step by step. */
function AnswersCopy({
  onboarding,
  t,
  formats,
  locale,
}: Omit<DoneProps, 'team' | 'at' | 'token'> & {
  onboarding: PortalOnboarding;
}) {
  const steps = useMemo(() => {
    const answers = latestAnswers(onboarding.responses ?? []);
    const all = formSteps(onboarding.template_snapshot.steps ?? [], locale);
    return visibleSteps(all, answers, onboarding).map((step) => ({
      step,
      rows: step.fields
        .map(
          (field) =>
            [field, displayAnswer(field, answers.get(field.id), onboarding, { t, formats, locale })] as const,
        )
        .filter((row): row is readonly [LocalizedField, string] => row[1] !== null),
    }));
  }, [onboarding, locale, t, formats]);
  return (
    <section class="done-copy" aria-labelledby="done-copy-title">
      <h2 id="done-copy-title">{t('done.copyTitle')}</h2>
      {steps.map(({ step, rows }, at) =>
        rows.length === 0 ? null : (
          <section key={step.id} class="review-step" aria-labelledby={`done-step-${at}`}>
            <h3 id={`done-step-${at}`}>{step.title}</h3>
            <dl class="answers">
              {rows.map(([field, text]) => (
                <div key={field.id} class="answer-row">
                  <dt>{field.label}</dt>
                  <dd>{text}</dd>
                </div>
              ))}
            </dl>
          </section>
        ),
      )}
    </section>
  );
}

export function Done(props: DoneProps) {
  const { team, onboarding, token, t, formats } = props;
  const title = t('done.title');
  const at = props.at ?? newestAnswerAt(onboarding);
  const documentReady = (onboarding as { document_ready?: boolean } | null)?.document_ready === true;
  return (
    <section class="card done" aria-labelledby="screen-title">
      <ScreenHeading documentTitle={pageTitle(t, title, team)} focusKey="done">
        <span id="screen-title">{title}</span>
      </ScreenHeading>
      <p>{t('done.body', { team })}</p>
      {at ? <p class="muted">{t('done.when', { date: formats.longDate(at) })}</p> : null}
      {documentReady && token ? (
        <p>
          <a
            class="button primary"
            href={`/portal/v1/onboardings/${encodeURIComponent(token)}/document`}
            download
          >
            {t('done.document')}
          </a>
        </p>
      ) : null}
      {onboarding ? <AnswersCopy {...props} onboarding={onboarding} /> : null}
    </section>
  );
}
