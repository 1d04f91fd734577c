import type { MouseEvent, ReactNode } from 'react';

/** Moves the keyboard focus to the page's <main>, past the navbar's tabs and dropdowns. */
function skipToContent(event: MouseEvent<HTMLAnchorElement>) {
  const main = document.querySelector('main');
  if (!main) return;
  event.preventDefault();
  if (!main.hasAttribute('tabindex')) main.setAttribute('tabindex', '-1');
  main.focus();
}

/** The first stop of the tab order on every page; shown only while it has the focus. */
export function SkipLink() {
  return (
    <a className="skip-link" href="#main" onClick={skipToContent}>
      Skip to content
    </a>
  );
}

/**
 * What the skip link points at: the routed page, whichever it is (a page's <main> has no id of its
 * own). Without a target, Lighthouse and axe count the link as broken.
 */
export function SkipTarget({ children }: { children: ReactNode }) {
  return <div id="main">{children}</div>;
}
