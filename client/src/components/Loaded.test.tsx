import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportReachable } from '../lib/online.ts';
import { failureReason, Loaded, type LoadedQuery } from './Loaded.tsx';

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

  it('says "You are offline" at once when nothing is kept and the call is held back, instead of loading forever', () => {
    act(() => reportReachable(false));
    show(query({ fetchStatus: 'paused' }));
    expect(screen.getByRole('alert')).toHaveTextContent('You are offline: could not load your tasks.');
    expect(screen.queryByText('Loading tasks...')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('shows a kept copy marked as not refreshed, with its time and Retry, while offline', () => {
    act(() => reportReachable(false));
    show(query({ data: ['Milk'], dataUpdatedAt: Date.UTC(2026, 10, 20, 9, 30), fetchStatus: 'paused' }));
    expect(screen.getByText('Milk')).toBeInTheDocument();
    const note = screen.getByRole('alert');
    expect(note).toHaveTextContent(/^You are offline: your tasks not refreshed: showing the copy from .*2026/);
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
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
