import type { MouseEvent } from 'react';

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
