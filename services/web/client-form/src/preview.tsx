/**
 * The template builder's preview: the real client form (FormScreen and its fields) over a
 * template instead of an onboarding. The page is /f/preview?template=<id>&locale=<locale>,
 * served like every form page; it reads the template with the member's workspace session
 * (GET /workspace/v1/templates/:id, same origin, so another team's template is not found)
 * and answers every portal call in the page's memory (./preview-portal.ts): nothing is
 * sent, saved or recorded.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { call, createApiClient } from '../../shared/api/client.ts';
import type { PortalOnboarding, PortalSnapshot, PortalStep } from './api.ts';
import { createFormats, isLocale, type Locale } from './i18n.ts';
import { PreviewPortal } from './preview-portal.ts';
import { FormScreen } from './screens/form.tsx';
import { LanguageSelect } from './screens/language-select.tsx';
import { Loading } from './screens/loading.tsx';
import { useText } from './use-text.ts';
import './preview.css';

type Loaded =
  { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'ready'; snapshot: PortalSnapshot };

// The workspace session's cookie goes with the read (same origin); nothing is written.
const workspace = createApiClient({ cache: 'no-store' });

async function loadTemplate(id: string): Promise<Loaded> {
  const answer = await call(workspace.GET('/workspace/v1/templates/{id}', { params: { path: { id } } }));
  if (answer.ok) {
    const { template } = answer.data;
    // A template is what a snapshot copies; the document leaves its steps open objects.
    return { kind: 'ready', snapshot: { ...template, steps: template.steps as unknown as PortalStep[] } };
  }
  if (answer.problem.status === 0) {
    return {
      kind: 'failed',
      message: 'The preview could not reach the service. Reload the page to try again.',
    };
  }
  if (answer.problem.status === 401) {
    return {
      kind: 'failed',
      message: 'Sign in to the workspace in this browser, then open the preview again.',
    };
  }
  return { kind: 'failed', message: 'This template was not found in your team.' };
}

export function PreviewApp() {
  const params = useMemo(() => new URLSearchParams(window.location.search), []);
  const templateId = params.get('template') ?? '';
  const wanted = params.get('locale');
  const [locale, setLocale] = useState<Locale>(isLocale(wanted) ? wanted : 'en-US');
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  const [portal, setPortal] = useState<PreviewPortal | null>(null);
  const [onboarding, setOnboarding] = useState<PortalOnboarding | null>(null);
  const [done, setDone] = useState(false);

  const t = useText(locale)?.t ?? null;

  useEffect(() => {
    void loadTemplate(templateId).then((next) => {
      setLoaded(next);
      if (next.kind !== 'ready') return;
      const preview = new PreviewPortal(next.snapshot);
      setPortal(preview);
      setOnboarding(preview.onboarding());
    });
  }, [templateId]);

  const formats = useMemo(() => createFormats(locale, null), [locale]);

  function chooseLocale(next: Locale) {
    const url = new URL(window.location.href);
    url.searchParams.set('locale', next);
    window.history.replaceState(null, '', url);
    setLocale(next);
  }

  return (
    <>
      <header class="site-header">
        <div class="header-inner">
          <p class="preview-banner" lang="en">
            <strong>Preview</strong> of the saved template. Answers stay in this page and are never sent or
            saved.
          </p>
          <LanguageSelect locale={locale} onChoose={chooseLocale} label="Preview language" labelLang="en" />
        </div>
      </header>
      <main id="main" class="main" tabIndex={-1}>
        {!t || loaded.kind === 'loading' ? <Loading t={t} /> : null}
        {loaded.kind === 'failed' ? (
          <section class="card" lang="en">
            <h1>Preview not available</h1>
            <p>{loaded.message}</p>
          </section>
        ) : null}
        {t && portal && onboarding && !done ? (
          <FormScreen
            key={locale}
            portal={portal}
            onboarding={onboarding}
            locale={locale}
            t={t}
            formats={formats}
            team=""
            refresh={async () => setOnboarding(portal.onboarding())}
            onDone={() => setDone(true)}
            onFatal={() => setDone(true)}
          />
        ) : null}
        {done ? (
          <section class="card done" lang="en">
            <h1>End of the preview</h1>
            <p>A client would now see that the form is complete. Nothing was sent or saved.</p>
          </section>
        ) : null}
      </main>
    </>
  );
}
