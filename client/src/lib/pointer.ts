import { useSyncExternalStore } from 'react';

/**
 * Whether the screen's main pointer is coarse (a finger): a phone or a tablet, where the keyboard on
 * the screen has no ctrl key. Decided from the pointer, never from the screen's width: a narrow
 * desktop window still has a keyboard.
 */
const QUERY = '(pointer: coarse)';

function media(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(QUERY) : null;
}

export function coarsePointer(): boolean {
  return media()?.matches ?? false;
}

function subscribe(onChange: () => void): () => void {
  const list = media();
  list?.addEventListener?.('change', onChange);
  return () => list?.removeEventListener?.('change', onChange);
}

/** `coarsePointer()`, kept current (a tablet that gets a mouse, DevTools' device mode). */
export function useCoarsePointer(): boolean {
  return useSyncExternalStore(subscribe, coarsePointer, () => false);
}
