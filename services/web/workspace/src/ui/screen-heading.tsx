import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/** The screen's one h1; it takes focus when the screen appears, so a screen reader starts there. */
export function ScreenHeading({ children }: { children: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <h1 ref={ref} tabIndex={-1}>
      {children}
    </h1>
  );
}
