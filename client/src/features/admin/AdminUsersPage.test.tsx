import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithSite } from '../../test/render.tsx';
import AdminUsersPage from './AdminUsersPage.tsx';

function renderAdmin() {
  const rows = [
    { name: 'owner', level: 3 },
    { name: 'kid', level: 1 },
  ];
  return renderWithSite(<AdminUsersPage />, {
    path: '/admin',
    procedures: {
      'auth.status': () => ({ user: 'owner', level: 3 }),
      'admin.users': () => rows,
      'admin.setLevel': (input) => input,
    },
  });
}

describe('AdminUsersPage guard rails', () => {
  it('asks before lowering your own level, and sends nothing when you cancel', async () => {
    const { calls } = renderAdmin();
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByLabelText('Level of owner'), '1');
    const dialog = await screen.findByRole('alertdialog', { name: 'Lower your own level?' });
    expect(dialog).toHaveTextContent('You lose this page at once');
    expect(screen.getByLabelText<HTMLSelectElement>('Level of owner').value).toBe('3');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls.filter((c) => c.path === 'admin.setLevel')).toEqual([]);

    await user.selectOptions(screen.getByLabelText('Level of owner'), '2');
    await user.click(await screen.findByRole('button', { name: 'Lower my level' }));
    await expect.poll(() => calls.filter((c) => c.path === 'admin.setLevel').map((c) => c.input)).toEqual([{ name: 'owner', level: 2 }]);
  });

  it("changes another member's level at once, without asking", async () => {
    const { calls } = renderAdmin();
    await userEvent.setup().selectOptions(await screen.findByLabelText('Level of kid'), '0');
    await expect.poll(() => calls.filter((c) => c.path === 'admin.setLevel').map((c) => c.input)).toEqual([{ name: 'kid', level: 0 }]);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
