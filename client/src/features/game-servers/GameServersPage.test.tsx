import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GameServer } from '@site/contracts/game-servers';
import { renderWithSite } from '../../test/render.tsx';
import GameServersPage from './GameServersPage.tsx';
import { FakeEventSource } from '../../test/event-source.ts';

const server = (over: Partial<GameServer>): GameServer => ({
  id: 1,
  port: 25565,
  description: 'Family survival',
  address: 'localhost:25565',
  game: 'minecraft',
  status: 'Offline',
  players: null,
  playerNames: [],
  map: null,
  version: null,
  pingMs: null,
  onlineSince: null,
  checkedAt: '2026-11-26T08:00:00.000Z',
  history: [],
  ...over,
});

describe('GameServersPage (issue 30: no wait for offline servers)', () => {
  beforeEach(() => vi.stubGlobal('EventSource', FakeEventSource));
  afterEach(() => vi.unstubAllGlobals());
  it('shows the stored answers, "Checking..." for a server not asked yet, and Add in progress', async () => {
    let finishAdd: (value: GameServer) => void = () => {};
    renderWithSite(<GameServersPage />, {
      path: '/personal/game-servers',
      procedures: {
        'auth.status': () => ({ user: 'boss', level: 3 }),
        'gameServers.list': () => [server({ id: 1, port: 2456, description: 'Our viking world' }), server({ id: 2, checkedAt: null, status: 'Unknown' })],
        'gameServers.add': () => new Promise<GameServer>((resolve) => (finishAdd = resolve)),
      },
    });
    const valheim = (await screen.findByText('Our viking world')).closest('tr');
    expect(valheim?.textContent).toContain('Offline');
    const family = screen.getByText('Family survival').closest('tr');
    expect(family?.querySelector('[role="status"]')?.textContent).toBe('Checking...');

    fireEvent.change(screen.getByLabelText('Port'), { target: { value: '27015' } });
    fireEvent.change(screen.getByLabelText('Description'), { target: { value: 'CS' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    const adding = await screen.findByRole('button', { name: 'Adding...' });
    expect((adding as HTMLButtonElement).disabled).toBe(true);
    finishAdd(server({ id: 3, port: 27015, description: 'CS', checkedAt: null, status: 'Unknown' }));
    await screen.findByRole('button', { name: 'Add' });
  });
});
