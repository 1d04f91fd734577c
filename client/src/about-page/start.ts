import '../styles/site.css';
import { applyColors } from '../lib/colors.ts';
import { loadStartup, type Startup } from '../lib/startup-fetch.ts';
import { afterLoadWhenIdle } from '../lib/idle.ts';

/**
 * The About page's first load, with no framework: the HTML is the whole page (prerendered with
 * react-dom/server by the build, vite.config.ts). This script makes the spec's three startup calls,
 * paints the viewer's colours and lifts the loading cover. React takes the page over later, from its
 * own chunk (./hydrate.tsx): when the browser is idle after the load, at the first interaction, or
 * as soon as the startup calls say the prerendered navbar (a visitor's) is not this viewer's.
 * `data-hydrating` on #root marks the page until then.
 */

const found = document.getElementById('root');
if (!found) throw new Error('The page has no #root element');
const root: HTMLElement = found;
const startup = loadStartup();
// The shell's rule for every route: an address containing 'print' shows the page alone.
const print = `${window.location.pathname}${window.location.search}`.includes('print');
const prerendered = root.firstElementChild !== null;
root.dataset.hydrating = '';

// The prerendered page alone, as React renders it for print (StandaloneAbout): no cover, no navbar.
if (prerendered && print) {
  const main = root.querySelector('#main');
  if (main) root.replaceChildren(...main.childNodes);
}

/** A click before React is there waits for it and is then replayed, so no handler of the page is missed. */
function holdClick(event: MouseEvent) {
  const target = event.target instanceof Element ? event.target.closest<HTMLElement>('a, button') : null;
  if (!target || !root.contains(target)) return;
  event.preventDefault();
  event.stopPropagation();
  void hydrate().finally(() => target.click());
}

let hydrated: Promise<void> | null = null;
function hydrate(): Promise<void> {
  hydrated ??= import('./hydrate.tsx')
    .then(({ hydrateAbout }) => hydrateAbout(root, startup, print))
    .finally(() => {
      document.removeEventListener('click', holdClick, true);
      delete root.dataset.hydrating;
    });
  return hydrated;
}

function liftCover() {
  const cover = root.querySelector('.loading-cover');
  cover?.classList.add('done');
  cover?.setAttribute('aria-hidden', 'true');
}

/** What the build prerendered: a visitor's navbar in its default (scroll) mode. */
const asPrerendered = (s: Startup) => s.status.user === null && s.status.level === 0 && !s.navbarStyle.clickToToggle;

void startup.then((answers) => {
  if (answers.colors) applyColors(answers.colors);
  if (asPrerendered(answers)) liftCover();
  // A member's navbar comes with React, which lifts the cover itself (and here if React cannot load).
  else void hydrate().finally(liftCover);
});

if (!prerendered) void hydrate();
else {
  document.addEventListener('click', holdClick, true);
  const soon = () => void hydrate();
  for (const type of ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown']) {
    document.addEventListener(type, soon, { once: true, passive: true, capture: true });
  }
  window.addEventListener('scroll', soon, { once: true, passive: true });
  afterLoadWhenIdle(soon);
}
