import { useEffect, useRef, useState, type ComponentType, type FocusEvent, type KeyboardEvent, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import type { Status } from '@site/contracts';
import { waitingText } from '@site/contracts/admin';
import { owner } from '../../owner.config.ts';
import { currentPort, viewerOf } from '../../lib/access.ts';
import { COPY_ALERTS, copyAndAlert } from '../../lib/clipboard.ts';
import { activateOnSpaceOrEnter } from '../../lib/keys.ts';
import { throttle } from '../../lib/throttle.ts';
import { linksFor } from '../../lib/links.ts';
import { BELL_SLOT, DROPDOWN_HIDE_DELAY_MS, RESIZE_THROTTLE_MS, SCROLL_THROTTLE_MS, isNarrow, tabWidth } from './layout.ts';

export type NavLinkProps = {
  to: string;
  className?: string;
  children: ReactNode;
  onKeyDown?: (event: KeyboardEvent<HTMLAnchorElement>) => void;
  tabIndex?: number;
  'aria-haspopup'?: 'true';
  'aria-expanded'?: boolean;
};
/** The router's Link in the app, a plain anchor on the prerendered About page. */
export type NavLinkComponent = ComponentType<NavLinkProps>;

type Item = { label: string; to?: string; external?: boolean; copy?: { text: string; alert: string }; hint?: string };
/** `badge`: a count shown on the tab (accounts waiting for approval on Admin), with words for screen readers. */
type Tab = { label: string; to: string; items?: Item[]; badge?: { count: number; words: string } };

function viewportWidth(): number {
  return document.documentElement.clientWidth || window.innerWidth;
}

/**
 * The width, re-read on resize at most once per second. `atOnce`: read in the first render, so a phone
 * gets its narrow bar straight away instead of the wide one and then a second render; a page that
 * hydrates server-rendered HTML (the About page) starts from null as its HTML did, and reads it after.
 */
function useThrottledWidth(atOnce: boolean): number | null {
  const [width, setWidth] = useState<number | null>(() => (atOnce ? viewportWidth() : null));
  useEffect(() => {
    if (!atOnce) setWidth(viewportWidth());
    const onResize = throttle(() => setWidth(viewportWidth()), RESIZE_THROTTLE_MS);
    window.addEventListener('resize', onResize);
    return () => {
      window.removeEventListener('resize', onResize);
      onResize.cancel();
    };
  }, [atOnce]);
  return width;
}

/** Scroll mode: hidden while scrolling down, shown when scrolling up (checked every 50 ms). */
function useHiddenOnScroll(enabled: boolean): boolean {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    if (!enabled) {
      setHidden(false);
      return;
    }
    // Read in the next frame, not here: reading the scroll position lays the page out at once, and here
    // that would add the whole page's layout to the task that has just put it on screen.
    let lastY = 0;
    const frame = requestAnimationFrame(() => {
      lastY = window.scrollY;
    });
    const onScroll = throttle(() => {
      const y = window.scrollY;
      if (y > lastY && y > 60) setHidden(true);
      else if (y < lastY) setHidden(false);
      lastY = y;
    }, SCROLL_THROTTLE_MS);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', onScroll);
      onScroll.cancel();
    };
  }, [enabled]);
  return hidden;
}

function contactItems(): Item[] {
  return [
    { label: 'Contact', to: '/personal#Contact' },
    { label: owner.chat.label, copy: { text: owner.chat.value, alert: COPY_ALERTS.chat } },
    { label: 'Phone', copy: { text: owner.phone, alert: COPY_ALERTS.phone } },
    { label: owner.social.label, to: owner.social.url, external: true },
    { label: owner.friendCode.label, copy: { text: owner.friendCode.value, alert: COPY_ALERTS.friendCode } },
  ];
}

export function buildTabs(status: Status, narrow: boolean, port?: number, waiting = 0): Tab[] {
  const viewer = viewerOf(status);
  const about: Tab = { label: 'About', to: '/about' };
  if (viewer === null) return [about, { label: 'Login', to: '/login' }];
  // The user menu: the Logout tab (the spec's) opens onto the account page and Logout itself.
  const logout: Tab = {
    label: 'Logout',
    to: '/logout',
    items: [
      { label: 'Account', to: '/personal/account' },
      { label: 'Logout', to: '/logout' },
    ],
  };
  if (viewer.level < 1) return [about, logout];
  const cool: Tab = {
    label: 'Cool Stuff',
    to: '/personal#Cool%20Stuff',
    items: linksFor('cool', viewer, port).map((r) => ({ label: r.navLabel ?? r.label, to: r.href })),
  };
  if (narrow) return [about, cool, logout];
  const tabs: Tab[] = [about, { label: 'Contact', to: '/personal#Contact', items: contactItems() }, cool];
  if (viewer.level >= 3) {
    const words = waitingText(waiting);
    tabs.push({
      label: 'Admin',
      to: '/personal#Admin',
      items: linksFor('admin', viewer, port).map((r) => ({ label: r.label, to: r.href, ...(r.href === '/admin' && waiting > 0 ? { hint: `${waiting} waiting` } : {}) })),
      ...(waiting > 0 ? { badge: { count: waiting, words } } : {}),
    });
  }
  tabs.push(logout);
  return tabs;
}

/** The focusable items of a dropdown, in order. */
const itemsOf = (tab: HTMLElement) => [...tab.querySelectorAll<HTMLElement>('.navbar-item')];

/**
 * A tab with its dropdown. The dropdown shows on hover or focus (the spec), but its items join the
 * tab order only once the keyboard enters it (ArrowDown on the tab): Tab alone walks from tab to tab.
 * Inside, the arrow keys (and Home/End) move between items; Escape closes it and returns to the tab.
 */
function DropdownTab({ tab, width, alignRight, Link }: { tab: Tab; width: number | null; alignRight: boolean; Link: NavLinkComponent }) {
  const [open, setOpen] = useState(false);
  const [entered, setEntered] = useState(false);
  const hideTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(hideTimer.current), []);
  const show = () => {
    clearTimeout(hideTimer.current);
    setOpen(true);
  };
  const hideSoon = () => {
    clearTimeout(hideTimer.current);
    hideTimer.current = setTimeout(() => {
      setOpen(false);
      setEntered(false);
    }, DROPDOWN_HIDE_DELAY_MS);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLLIElement>) => {
    const li = event.currentTarget;
    const items = itemsOf(li);
    const at = items.indexOf(document.activeElement as HTMLElement);
    const focusItem = (index: number) => {
      event.preventDefault();
      clearTimeout(hideTimer.current);
      // Rendered at once: a closed dropdown's items cannot take the focus.
      flushSync(() => {
        setOpen(true);
        setEntered(true);
      });
      items[index]?.focus();
    };
    if (event.key === 'Escape') {
      // Back to the tab first (its focus would open the dropdown again), then closed.
      if (at >= 0) li.querySelector<HTMLElement>('.navbar-link')?.focus();
      clearTimeout(hideTimer.current);
      setOpen(false);
      setEntered(false);
    } else if (event.key === 'ArrowDown') focusItem(at < 0 ? 0 : (at + 1) % items.length);
    else if (event.key === 'ArrowUp') focusItem(at <= 0 ? items.length - 1 : at - 1);
    else if (event.key === 'Home' && at >= 0) focusItem(0);
    else if (event.key === 'End' && at >= 0) focusItem(items.length - 1);
  };
  const onBlur = (event: FocusEvent<HTMLLIElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) hideSoon();
  };
  return (
    <li
      className={`navbar-tab has-dropdown${open ? ' open' : ''}${alignRight ? ' align-right' : ''}`}
      style={width === null ? undefined : { width }}
      onMouseEnter={show}
      onMouseLeave={hideSoon}
      onFocus={show}
      onBlur={onBlur}
      onKeyDown={onKeyDown}
    >
      <Link to={tab.to} className="navbar-link" aria-haspopup="true" aria-expanded={open} onKeyDown={activateOnSpaceOrEnter}>
        {tab.label}
        {tab.badge && (
          <span className="nav-badge" data-testid="nav-waiting">
            <span aria-hidden="true">{tab.badge.count}</span>
            <span className="visually-hidden">{`, ${tab.badge.words}`}</span>
          </span>
        )}
        <span className="caret" aria-hidden="true">
          ▾
        </span>
      </Link>
      <ul className="navbar-dropdown" aria-label={tab.label}>
        {tab.items?.map((item) => (
          <li key={item.label}>
            {item.copy ? (
              <button
                type="button"
                className="navbar-item"
                tabIndex={entered ? 0 : -1}
                onClick={() => {
                  const { text, alert } = item.copy ?? { text: '', alert: '' };
                  void copyAndAlert(text, alert);
                }}
              >
                {item.label}
                <span className="item-hint">copy</span>
              </button>
            ) : item.external ? (
              <a className="navbar-item" href={item.to} target="_blank" rel="noreferrer" tabIndex={entered ? 0 : -1} onKeyDown={activateOnSpaceOrEnter}>
                {item.label}
                <span className="item-hint">↗</span>
              </a>
            ) : (
              <Link to={item.to ?? '/'} className="navbar-item" tabIndex={entered ? 0 : -1} onKeyDown={activateOnSpaceOrEnter}>
                {item.label}
                {item.hint && <span className="item-hint">{item.hint}</span>}
              </Link>
            )}
          </li>
        ))}
      </ul>
    </li>
  );
}

/**
 * `waiting`: accounts waiting for approval, shown to admins on the Admin tab. `hydrating`: the bar is
 * rendered over its own server-rendered HTML (the About page), so its first render must match it.
 */
export type NavbarProps = { status: Status; clickToToggle: boolean; Link: NavLinkComponent; waiting?: number; hydrating?: boolean; bell?: ReactNode };

/**
 * `bell`: the notification bell, shown at the end of the title's slot. It sits in the bar but outside
 * the Main navigation, so the tabs (their number, widths and words, which the spec fixes) stay as
 * they are.
 */
export function Navbar({ status, clickToToggle, Link, waiting = 0, hydrating = false, bell }: NavbarProps) {
  const width = useThrottledWidth(!hydrating);
  const narrow = width !== null && isNarrow(width, status.user === null ? 0 : status.level);
  const scrolledAway = useHiddenOnScroll(!clickToToggle);
  const [toggledAway, setToggledAway] = useState(false);
  const hidden = clickToToggle ? toggledAway : scrolledAway;
  const tabs = buildTabs(status, narrow, currentPort(), waiting);
  const slot = width === null ? null : tabWidth(width, tabs.length);
  const titleTarget = status.user !== null && status.level >= 1 ? '/personal' : '/about';

  return (
    <>
      <header
        className={`navbar${hidden ? ' navbar-hidden' : ''}${narrow ? ' narrow' : ''}${bell && slot !== null ? ' has-bell' : ''}`}
        data-testid="navbar"
        data-layout={narrow ? 'narrow' : 'wide'}
      >
        <nav aria-label="Main">
          <ul className="navbar-tabs">
            <li className="navbar-title" style={slot === null ? undefined : { width: slot }}>
              <Link to={titleTarget} className="navbar-link" onKeyDown={activateOnSpaceOrEnter}>
                {narrow ? owner.shortTitle : owner.siteTitle}
              </Link>
            </li>
            {tabs.map((tab, index) =>
              tab.items ? (
                <DropdownTab key={tab.label} tab={tab} width={slot} alignRight={index >= tabs.length / 2} Link={Link} />
              ) : (
                <li key={tab.label} className="navbar-tab" style={slot === null ? undefined : { width: slot }}>
                  <Link to={tab.to} className="navbar-link" onKeyDown={activateOnSpaceOrEnter}>
                    {tab.label}
                  </Link>
                </li>
              ),
            )}
          </ul>
        </nav>
        {bell && slot !== null && (
          <div className="navbar-bell" style={{ left: slot - BELL_SLOT }}>
            {bell}
          </div>
        )}
      </header>
      {clickToToggle && (
        <button
          type="button"
          className={`navbar-toggle${toggledAway ? '' : ' below-bar'}`}
          aria-label={toggledAway ? 'Show navigation bar' : 'Hide navigation bar'}
          aria-pressed={!toggledAway}
          onClick={() => setToggledAway((v) => !v)}
        >
          {toggledAway ? '☰' : '▴'}
        </button>
      )}
    </>
  );
}
