import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { Translate } from '../i18n.ts';

let firstScreen = true;

/**
 * The one h1 of a screen. When the screen (or `focusKey`) changes, focus moves to it so a
 * screen reader reads the new screen from its start; the page's first screen keeps the
 * browser's own starting point. It also sets the document title.
 */
export function ScreenHeading({
  children,
  documentTitle,
  focusKey,
}: {
  children: ComponentChildren;
  documentTitle: string;
  focusKey?: string | number;
}) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = documentTitle;
  }, [documentTitle]);
  useEffect(() => {
    if (firstScreen) {
      firstScreen = false;
      return;
    }
    ref.current?.focus({ preventScroll: false });
  }, [focusKey]);
  return (
    <h1 ref={ref} tabIndex={-1} class="screen-heading">
      {children}
    </h1>
  );
}

/** The document title of a screen: the screen's heading, then the form's title with the team. */
export function pageTitle(t: Translate, screen: string, team: string | null): string {
  return team ? `${screen} – ${t('app.title', { team })}` : screen;
}
