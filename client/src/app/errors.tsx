import { Component, type ReactNode } from 'react';
import { ErrorView } from '../components/ErrorView.tsx';
import { isOnline } from '../lib/online.ts';

export const PAGE_NOT_ON_DEVICE = 'This page has not been opened on this device yet: open it once with a connection';
export const PAGE_NOT_LOADED = 'This page could not be loaded: reload to try again';

/**
 * A page's chunk that could not be fetched (router.tsx wraps every lazy page's import with it), told
 * in words rather than the browser's "Failed to fetch dynamically imported module: …": offline, the
 * page was never opened on this device (the service worker keeps a page's files once it has loaded).
 */
export class PageChunkError extends Error {
  constructor(cause: unknown) {
    super(isOnline() ? PAGE_NOT_LOADED : PAGE_NOT_ON_DEVICE, { cause });
  }
}

/**
 * Whatever a page throws while it renders (or its chunk failing to load): the message, inside the
 * shell under the navbar. A new address (`resetKey`) tries the page again.
 */
export class PageErrors extends Component<{ resetKey: string; children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: undefined };

  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error('Unknown error') };
  }

  override componentDidUpdate(previous: { resetKey: string }) {
    if (this.state.error !== undefined && previous.resetKey !== this.props.resetKey) this.setState({ error: undefined });
  }

  override render() {
    const { error } = this.state;
    if (error === undefined) return this.props.children;
    const message = error instanceof Error ? error.message : String(error);
    return <ErrorView title={error instanceof PageChunkError ? 'Not available' : "That's an error."} message={message} />;
  }
}
