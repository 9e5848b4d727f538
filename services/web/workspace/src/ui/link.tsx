import type { ComponentChildren } from 'preact';

/** A link inside the app: navigates without reloading the page. */
export function Link({
  href,
  navigate,
  children,
  current,
}: {
  href: string;
  navigate: (path: string) => void;
  children: ComponentChildren;
  current?: boolean;
}) {
  return (
    <a
      href={href}
      aria-current={current ? 'page' : undefined}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(href);
      }}
    >
      {children}
    </a>
  );
}
