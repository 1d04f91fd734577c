import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * Asks `question` before leaving a page with unsaved work: a link to another page of the site, and a
 * reload or a closed tab (the browser's own question). The app runs react-router's declarative routes
 * (its data router, the one with useBlocker, costs the shell about 14 KB: docs/benchmarks.md), so a
 * click on a link of this site is caught in the capture phase, before react-router's Link handles it.
 */
export function useAskBeforeLeaving(dirty: boolean, question: string): void {
  const { pathname } = useLocation();
  useEffect(() => {
    if (!dirty) return;
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!(link instanceof HTMLAnchorElement) || (link.target !== '' && link.target !== '_self')) return;
      const next = new URL(link.href, window.location.href);
      if (next.origin !== window.location.origin || next.pathname === pathname) return;
      if (window.confirm(question)) return;
      event.preventDefault();
      event.stopPropagation();
    };
    const onUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    document.addEventListener('click', onClick, true);
    window.addEventListener('beforeunload', onUnload);
    return () => {
      document.removeEventListener('click', onClick, true);
      window.removeEventListener('beforeunload', onUnload);
    };
  }, [dirty, question, pathname]);
}
