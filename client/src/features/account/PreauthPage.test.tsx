import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeEventSource } from '../../test/event-source.ts';
import { renderWithSite } from '../../test/render.tsx';
import PreauthPage from './PreauthPage.tsx';

describe('PreauthPage', () => {
  beforeEach(() => {
    FakeEventSource.all = [];
    vi.stubGlobal('EventSource', FakeEventSource);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('tells a pending account to wait', async () => {
    renderWithSite(<PreauthPage />, { path: '/preauth', procedures: { 'auth.status': () => ({ user: 'newbie', level: 0 }) } });
    expect(await screen.findByRole('heading', { name: 'Account pending' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/preauth');
  });

  it('sends a member who is already approved to the hub', async () => {
    renderWithSite(<PreauthPage />, { path: '/preauth', procedures: { 'auth.status': () => ({ user: 'friend', level: 1 }) } });
    await expect.poll(() => screen.getByTestId('location').textContent).toBe('/personal');
  });

  it('moves to the hub by itself when the live feed says its account changed and it is approved', async () => {
    let level = 0;
    renderWithSite(<PreauthPage />, { path: '/preauth', procedures: { 'auth.status': () => ({ user: 'newbie', level }) } });
    expect(await screen.findByRole('heading', { name: 'Account pending' })).toBeInTheDocument();
    await expect.poll(() => FakeEventSource.open().length).toBe(1);
    level = 1;
    FakeEventSource.open()[0]?.emit('ready');
    FakeEventSource.open()[0]?.emit('change', JSON.stringify({ area: 'account' }));
    await expect.poll(() => screen.getByTestId('location').textContent).toBe('/personal');
  });
});
