import { useState } from 'preact/hooks';
import { t } from '../../../i18n.ts';
import { newStep } from '../template-model.ts';
import { ErrorMessage, Link, ScreenHeading } from '../../../ui/index.ts';
import { builderMoves, useMoveFocus } from './builder-moves.ts';
import { LeaveDialog, PreviewSection, SaveBar, SendBlockers, TemplateDetails } from './builder-sections.tsx';
import { StepCard } from './builder-step.tsx';
import { useBuilderTemplate } from './use-builder-template.ts';
import './template-builder.css';

/**
 * The template builder: the template's details, its steps and their fields (added,
 * edited, removed, moved by keyboard or by drag), each field's config, required or
 * optional, show-when rules, translations per locale, the send blockers (sample agreement
 * text), save with the version opened, and the preview (the real client form, in a new
 * tab, over the saved template).
 */
export function TemplateBuilderScreen({ id, navigate }: { id: string; navigate: (path: string) => void }) {
  const state = useBuilderTemplate(id);
  const { template, problems, loadError, dirty, update } = state;
  const [locale, setLocale] = useState('');
  const [previewLocale, setPreviewLocale] = useState('en-US');
  const [announcement, setAnnouncement] = useState('');
  const [leaving, setLeaving] = useState(false);
  const focus = useMoveFocus(template);

  if (loadError) {
    return (
      <>
        <ScreenHeading>{t('title.template')}</ScreenHeading>
        <ErrorMessage text={loadError} />
        <Link href="/workspace/templates" navigate={navigate}>
          {t('builder.back')}
        </Link>
      </>
    );
  }
  if (!template || !problems) return <p class="loading">{t('app.loading')}</p>;

  const { stepMoves, fieldMoves } = builderMoves({ ...focus, template, update, announce: setAnnouncement });
  // What every step card is given alike.
  const every = { state, template, locale, fieldMoves, announce: setAnnouncement };
  const addStep = () => {
    const step = newStep(
      crypto.randomUUID(),
      t('builder.newStepTitle', { number: template.steps.length + 1 }),
    );
    update((draft) => draft.steps.push(step));
    setAnnouncement(t('builder.addedStep'));
    setTimeout(() => document.getElementById(`s-${step.id}-title`)?.focus(), 0);
  };

  return (
    <div class="builder">
      <ScreenHeading>{t('builder.heading', { name: template.name || t('title.template') })}</ScreenHeading>
      <p>
        <a
          href="/workspace/templates"
          onClick={(event) => {
            event.preventDefault();
            if (dirty) setLeaving(true);
            else navigate('/workspace/templates');
          }}
        >
          {t('builder.back')}
        </a>
      </p>
      <p class="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      <SendBlockers template={template} />
      <TemplateDetails template={template} state={state} locale={locale} onLocale={setLocale} />

      <h2 id="steps-heading" class="section-title">
        {t('builder.steps')}
      </h2>
      <ol class="builder-steps" aria-labelledby="steps-heading">
        {template.steps.map((step, stepIndex) => (
          <StepCard
            key={step.id}
            step={step}
            stepIndex={stepIndex}
            moves={stepMoves(step, stepIndex)}
            {...every}
          />
        ))}
      </ol>
      <button type="button" class="button-secondary" onClick={addStep}>
        {t('builder.addStep')}
      </button>

      <PreviewSection id={id} dirty={dirty} locale={previewLocale} onLocale={setPreviewLocale} />
      <SaveBar state={state} navigate={navigate} />
      {leaving ? (
        <LeaveDialog onStay={() => setLeaving(false)} onLeave={() => navigate('/workspace/templates')} />
      ) : null}
    </div>
  );
}
