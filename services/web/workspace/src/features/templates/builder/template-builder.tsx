import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../../../i18n.ts';
import { setLeaveGuard } from '../../../leave-guard.ts';
import { newStep } from '../template-model.ts';
import { ErrorMessage, Link, ScreenHeading } from '../../../ui/index.ts';
import { builderMoves, typeName, useMoveFocus } from './builder-moves.ts';
import {
  LeaveDialog,
  PreviewPanel,
  ProblemSummary,
  SaveBar,
  SendBlockers,
  TemplateDetails,
  type ProblemLink,
} from './builder-sections.tsx';
import { stepHeading, StepCard } from './builder-step.tsx';
import { useBuilderTemplate, type BuilderState } from './use-builder-template.ts';
import './template-builder.css';

/**
 * The template builder: the template's details, its steps and their fields as collapsed cards
 * (one open at a time: a field's label, required or optional, prefill, config, show-when rule,
 * translations, moves by keyboard or drag, duplicate, remove), a palette per step, the send
 * blockers, a save bar stuck to the bottom that says whether everything is saved, the save's
 * problems linked to their cards, and beside it all a live preview of the unsaved template.
 * Leaving with unsaved edits asks first (the app's navigate consults the leave guard).
 */
export function TemplateBuilderScreen({ id, navigate }: { id: string; navigate: (path: string) => void }) {
  const state = useBuilderTemplate(id);
  const { template, problems, loadError, dirty, update } = state;
  const [locale, setLocale] = useState('');
  const [previewLocale, setPreviewLocale] = useState('en-US');
  const [announcement, setAnnouncement] = useState('');
  const [leavingTo, setLeavingTo] = useState<string | null>(null);
  const [openId, setOpenId] = useState<string | null>(null);
  const [previewShown, setPreviewShown] = useState(false);
  const focus = useMoveFocus(template);
  useLeaveGuard(dirty, setLeavingTo);
  const links = template && problems ? problemLinks(state, setOpenId) : [];
  useFirstProblem(state.refusals, links);

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
  const every = { state, template, locale, fieldMoves, announce: setAnnouncement, openId, setOpenId };
  const addStep = () => {
    const step = newStep(
      crypto.randomUUID(),
      t('builder.newStepTitle', { number: template.steps.length + 1 }),
    );
    update((draft) => draft.steps.push(step));
    setAnnouncement(t('builder.addedStep'));
    setOpenId(`step:${step.id}`);
    setTimeout(() => document.getElementById(`s-${step.id}-title`)?.focus(), 0);
  };

  return (
    <div class="builder">
      <ScreenHeading>{t('builder.heading', { name: template.name || t('title.template') })}</ScreenHeading>
      <div class="builder-top">
        <Link href="/workspace/templates" navigate={navigate}>
          {t('builder.back')}
        </Link>
        <button
          type="button"
          class="button-secondary builder-preview-toggle"
          aria-expanded={previewShown}
          aria-controls="builder-preview"
          onClick={() => setPreviewShown(!previewShown)}
        >
          {t('builder.previewToggle')}
        </button>
      </div>
      <p class="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      <ProblemSummary links={links} />
      <div class="builder-layout">
        <div class="builder-main">
          <SendBlockers template={template} />
          <TemplateDetails
            template={template}
            state={state}
            locale={locale}
            onLocale={setLocale}
            open={openId === 'details'}
            onToggle={() => setOpenId(openId === 'details' ? null : 'details')}
          />
          <h2 id="steps-heading" class="section-title" tabIndex={-1}>
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
          <SaveBar state={state} navigate={navigate} />
        </div>
        <PreviewPanel
          id={id}
          template={template}
          dirty={dirty}
          locale={previewLocale}
          onLocale={setPreviewLocale}
          shownOnPhone={previewShown}
        />
      </div>
      {leavingTo !== null ? (
        <LeaveDialog
          onStay={() => setLeavingTo(null)}
          onLeave={() => {
            setLeaveGuard(null);
            navigate(leavingTo);
          }}
        />
      ) : null}
    </div>
  );
}

/** While there are unsaved edits, the app's navigate stops and this screen asks (LeaveDialog). */
function useLeaveGuard(dirty: boolean, ask: (path: string) => void) {
  useEffect(() => {
    if (!dirty) return;
    return setLeaveGuard((path) => {
      ask(path);
      return false;
    });
  }, [dirty]);
}

/** The problems shown after a refused save, each linked to its card: the card opens, its first input takes focus. */
function problemLinks(state: BuilderState, setOpenId: (id: string | null) => void): ProblemLink[] {
  const { template, problems, shownProblems } = state;
  if (!template || !problems) return [];
  const links: ProblemLink[] = [];
  const goTo = (openKey: string, inputId: string) => () => {
    setOpenId(openKey);
    setTimeout(() => {
      const input = document.getElementById(inputId);
      input?.scrollIntoView({ block: 'center' });
      input?.focus();
    }, 0);
  };
  if (state.checked) {
    for (const text of problems.template) {
      links.push({
        key: 'template-name',
        name: t('builder.details'),
        text,
        go: goTo('details', 'template-name'),
      });
    }
  }
  template.steps.forEach((step, index) => {
    for (const text of shownProblems(step.id, problems.steps[step.id])) {
      const name = stepHeading(step.title, index + 1);
      links.push({
        key: `s-${step.id}-title`,
        name,
        text,
        go: goTo(`step:${step.id}`, `s-${step.id}-title`),
      });
    }
    for (const field of step.fields) {
      for (const text of shownProblems(field.id, problems.fields[field.id])) {
        const name = field.label || typeName(field.type);
        links.push({ key: `f-${field.id}-label`, name, text, go: goTo(field.id, `f-${field.id}-label`) });
      }
    }
  });
  return links;
}

/** After each refused save, the first problem's card opens and its input takes focus. */
function useFirstProblem(refusals: number, links: ProblemLink[]) {
  const latest = useRef(links);
  latest.current = links;
  useEffect(() => {
    if (refusals > 0) latest.current[0]?.go();
  }, [refusals]);
}
