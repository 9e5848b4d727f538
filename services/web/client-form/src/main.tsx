import { render } from 'preact';
import { lazy, Suspense } from 'preact/compat';
import { App } from './app.tsx';
import './styles.css';

/** The template builder's preview (./preview.tsx): its own chunk, which no client's link loads. */
const PREVIEW_PATH = '/f/preview';
const PreviewApp = lazy(() => import('./preview.tsx').then((m) => ({ default: m.PreviewApp })));

const root = document.getElementById('app');
// /f/preview is the template builder's preview; every other /f/ path is a client's link.
if (root) {
  render(
    window.location.pathname.replace(/\/$/, '') === PREVIEW_PATH ? (
      <Suspense
        fallback={
          <p class="loading" role="status" lang="en">
            Loading the preview…
          </p>
        }
      >
        <PreviewApp />
      </Suspense>
    ) : (
      <App />
    ),
    root,
  );
}
