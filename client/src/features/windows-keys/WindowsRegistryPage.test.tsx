import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { windowsKeyMessages } from '@site/contracts/windows-keys';
import { FakeTrpcError, renderWithSite } from '../../test/render.tsx';
import WindowsRegistryPage from './WindowsRegistryPage.tsx';

const KEY = 'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE';

function setup() {
  return renderWithSite(<WindowsRegistryPage />, {
    path: '/personal/windows-registry',
    procedures: {
      'windowsKeys.list': () => [{ key: KEY, status: 'Inactive', location: 'Attic', changedBy: null, changedAt: '2026-11-20T10:00:00Z' }],
      'windowsKeys.add': () => {
        throw new FakeTrpcError(windowsKeyMessages.duplicate);
      },
      'windowsKeys.update': (input) => input,
    },
  });
}

async function registerDuplicate() {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Key'), KEY.replace(/-/g, ''));
  await user.selectOptions(screen.getByLabelText('Status'), 'Active');
  await user.type(screen.getByLabelText('Location'), 'Desk');
  await user.click(screen.getByRole('button', { name: 'Register' }));
  await screen.findByText(windowsKeyMessages.duplicate);
  return user;
}

// Typing the 25-character key key by key takes seconds on a loaded machine.
describe('Windows Keys: "That key is already registered"', { timeout: 20_000 }, () => {
  it('leaves when the next action on the page succeeds', async () => {
    setup();
    await screen.findByText('Attic');
    const user = await registerDuplicate();
    // Claiming the free key for the study succeeds.
    vi.spyOn(window, 'prompt').mockReturnValue('Study');
    await user.click(screen.getByRole('button', { name: `Claim ${KEY}` }));
    await vi.waitFor(() => expect(screen.queryByText(windowsKeyMessages.duplicate)).not.toBeInTheDocument());
  });

  it('leaves with the first edit of the form', async () => {
    setup();
    await screen.findByText('Attic');
    const user = await registerDuplicate();
    await user.type(screen.getByLabelText('Location'), ' 2');
    expect(screen.queryByText(windowsKeyMessages.duplicate)).not.toBeInTheDocument();
  });
});
