import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportReachable } from '../lib/online.ts';
import { resetPwaForTests, followReadiness } from '../lib/pwa.ts';
import type { QueueArea } from '../lib/offline-queue.ts';
import { failureReason, Loaded, NOT_READY_OFFLINE_TEXT, OFFLINE_BANNER_TEXT, OfflineBanner, type LoadedQuery } from './Loaded.tsx';
import { SyncStatus } from './SyncStatus.tsx';

function show(query: LoadedQuery<string[]>) {
  return render(
    <Loaded query={query} what="your tasks" loading="Loading tasks...">
      {(tasks) => (tasks.length === 0 ? <p>No tasks yet.</p> : <ul>{tasks.map((t) => <li key={t}>{t}</li>)}</ul>)}
    </Loaded>,
  );
}

const query = (over: Partial<LoadedQuery<string[]>>): LoadedQuery<string[]> => ({ data: undefined, error: null, refetch: vi.fn(), fetchStatus: 'idle', ...over });

afterEach(() => {
  act(() => reportReachable(true));
  resetPwaForTests();
});

describe('failureReason', () => {
  it("gives the server's message, else the status a proxy answered with, else that nothing answered", () => {
    expect(failureReason({ message: 'Not allowed', data: { code: 'FORBIDDEN' } })).toBe('Not allowed');
    expect(failureReason({ message: 'Unexpected token I in JSON', meta: { response: { status: 500 } } })).toBe('The server answered with an error (500).');
    expect(failureReason({ message: 'Unexpected token <', cause: new SyntaxError('Unexpected token <') })).toBe('The server answered with an error.');
    expect(failureReason({ message: 'Failed to fetch', cause: new TypeError('Failed to fetch') })).toBe('The server did not answer.');
  });
});

describe('Loaded', () => {
  it('says what could not be loaded and offers Retry when the server fails: never an empty list', async () => {
    const refetch = vi.fn();
    show(query({ error: { message: 'Internal server error', data: { code: 'INTERNAL_SERVER_ERROR' } }, refetch }));
    expect(screen.getByRole('alert')).toHaveTextContent('Could not load your tasks. Internal server error');
    expect(screen.queryByText('No tasks yet.')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(refetch).toHaveBeenCalledTimes(1);
  });

  it('shows the loading line while the first answer is on its way, and the contents once loaded', () => {
    const { rerender } = show(query({ fetchStatus: 'fetching' }));
    expect(screen.getByRole('status')).toHaveTextContent('Loading tasks...');
    rerender(
      <Loaded query={query({ data: [] })} what="your tasks" loading="Loading tasks...">
        {() => <p>No tasks yet.</p>}
      </Loaded>,
    );
    expect(screen.getByText('No tasks yet.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('offers no Retry when the thing asked for does not exist (a 404 stays a 404)', () => {
    show(query({ error: { message: 'That album does not exist', data: { code: 'NOT_FOUND', httpStatus: 404 } } }));
    expect(screen.getByRole('alert')).toHaveTextContent('Could not load your tasks. That album does not exist');
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('says "You are offline" at once when nothing is kept and the call is held back, instead of loading forever', () => {
    act(() => reportReachable(false));
    show(query({ fetchStatus: 'paused' }));
    expect(screen.getByRole('alert')).toHaveTextContent('You are offline: could not load your tasks.');
    expect(screen.queryByText('Loading tasks...')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('shows a kept copy with the time it is from while offline, in one sentence that leaves "offline" to the banner', () => {
    act(() => reportReachable(false));
    show(query({ data: ['Milk'], dataUpdatedAt: Date.UTC(2026, 10, 20, 9, 30), fetchStatus: 'paused' }));
    expect(screen.getByText('Milk')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(/^Showing your tasks as last loaded on .*2026.*\.$/);
    expect(screen.queryByText(/offline/i)).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    // Retry cannot help with no network: the page reads again by itself when the site is back.
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('marks a kept copy filled in after a failed call (an answer older than the page) even once the failure is gone', () => {
    show(query({ data: [], dataUpdatedAt: Date.now() - 60 * 60 * 1000 }));
    expect(screen.getByText('No tasks yet.')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(/^Could not refresh your tasks: showing the copy from /);
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('keeps the last answer when a refresh fails, marked as not refreshed with the reason', () => {
    show(query({ data: ['Milk'], error: { message: 'Unexpected token', meta: { response: { status: 502 } } }, dataUpdatedAt: Date.now() }));
    expect(screen.getByText('Milk')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(/^Could not refresh your tasks: showing the copy from .*\. The server answered with an error \(502\)\./);
  });
});

describe('saying the site is offline, once', () => {
  it('the banner says it in one sentence; the waiting count says nothing of it', () => {
    const { container, rerender } = render(
      <>
        <OfflineBanner />
        <SyncStatus waiting={0} />
      </>,
    );
    expect(screen.queryByRole('status')).toBeNull();
    act(() => reportReachable(false));
    expect(container.querySelector('.offline-banner')).toHaveTextContent(OFFLINE_BANNER_TEXT);
    expect(screen.getAllByText(/offline/i)).toHaveLength(1);
    rerender(
      <>
        <OfflineBanner />
        <SyncStatus waiting={2} />
      </>,
    );
    expect(container.querySelector('.sync-status')).toHaveTextContent(/^2 changes waiting$/);
  });

  it('the banner names every page whose changes wait in the offline queue (House, Todo, Chores)', () => {
    // A new area of the queue fails the type check here until it is named, and then this test until the banner says it.
    const pages = { house: 'House', todo: 'Todo', chores: 'Chores' } satisfies Record<QueueArea, string>;
    expect(OFFLINE_BANNER_TEXT).toBe('You are offline: changes to House, Todo and Chores are sent when the connection is back, others cannot be saved until then.');
    for (const page of Object.values(pages)) expect(OFFLINE_BANNER_TEXT).toContain(page);
  });

  it('says the device is not ready to work offline yet while the first service worker is still caching the site', async () => {
    const worker = Object.assign(new EventTarget(), { state: 'installing' as ServiceWorkerState });
    const registration = Object.assign(new EventTarget(), { active: null, installing: worker, waiting: null });
    let activate = () => {};
    const ready = new Promise<ServiceWorkerRegistration>((resolve) => (activate = () => resolve(registration as unknown as ServiceWorkerRegistration)));
    act(() => followReadiness(registration as unknown as ServiceWorkerRegistration, { ready }));
    const { container } = render(<OfflineBanner />);
    act(() => reportReachable(false));
    expect(container.querySelector('.offline-banner')).toHaveTextContent(NOT_READY_OFFLINE_TEXT);
    // The precache is in: the worker is active.
    await act(async () => activate());
    expect(container.querySelector('.offline-banner')).toHaveTextContent(OFFLINE_BANNER_TEXT);
  });
});
