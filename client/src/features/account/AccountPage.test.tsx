import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { authMessages } from '@site/contracts/auth';
import { FakeTrpcError, renderWithSite } from '../../test/render.tsx';
import AccountPage from './AccountPage.tsx';

function renderAccount(signedInLongAgo = false) {
  let confirmed = !signedInLongAgo;
  let tokens = [{ id: 1, label: 'Old script', createdAt: '2026-11-01T10:00:00.000Z', lastUsedAt: null as string | null, scopes: null as string[] | null }];
  const view = renderWithSite(<AccountPage />, {
    path: '/personal/account',
    procedures: {
      'auth.status': () => ({ user: 'mia', level: 1 }),
      'auth.devices': () => [
        { id: 'a', browser: 'Firefox 131 on Linux', address: '10.0.0.1', signedInAt: '2026-11-20T10:00:00.000Z', lastUsedAt: '2026-11-26T09:00:00.000Z', current: true },
        { id: 'b', browser: 'Safari 17 on iOS', address: '10.0.0.2', signedInAt: '2026-11-21T10:00:00.000Z', lastUsedAt: '2026-11-25T09:00:00.000Z', current: false },
      ],
      'auth.tokens': () => tokens,
      'auth.createToken': (input) => {
        if (!confirmed) throw new FakeTrpcError(authMessages.confirmNeeded, {}, 403);
        const made = { id: 2, label: (input as { label: string }).label, createdAt: '2026-11-26T10:00:00.000Z', lastUsedAt: null, scopes: (input as { scopes: string[] | null }).scopes, token: `site_${'a'.repeat(43)}` };
        tokens = [made, ...tokens];
        return made;
      },
      'auth.revokeToken': (input) => {
        tokens = tokens.filter((t) => t.id !== (input as { id: number }).id);
        return { ok: true };
      },
      'auth.changePassword': () => ({ message: 'Password changed. Every other device is signed out.' }),
      'auth.passkeys': () => [],
      'auth.confirmPassword': (input) => {
        if ((input as { password: string }).password !== 'old-secret') throw new FakeTrpcError(authMessages.currentPasswordWrong, {}, 400);
        confirmed = true;
        return { message: authMessages.confirmed };
      },
    },
  });
  return view;
}

describe('AccountPage', () => {
  it('checks the new password twice before sending, then sends all three fields', async () => {
    const { calls } = renderAccount();
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Change password' });
    await user.type(within(form).getByLabelText('Current password'), 'old-secret');
    await user.type(within(form).getByLabelText('New password'), 'new-secret-1');
    await user.type(within(form).getByLabelText('Confirm new password'), 'new-secret-2');
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('New password and Confirm new password do not match');
    expect(calls.filter((c) => c.path === 'auth.changePassword')).toEqual([]);
    // The same password as the current one is no change.
    await user.clear(within(form).getByLabelText('New password'));
    await user.clear(within(form).getByLabelText('Confirm new password'));
    await user.type(within(form).getByLabelText('New password'), 'old-secret');
    await user.type(within(form).getByLabelText('Confirm new password'), 'old-secret');
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('The new password is the same as the current one; choose another');
    expect(calls.filter((c) => c.path === 'auth.changePassword')).toEqual([]);
    await user.clear(within(form).getByLabelText('New password'));
    await user.type(within(form).getByLabelText('New password'), 'new-secret-1');
    expect(within(form).getByRole('checkbox', { name: 'Also remove my passkeys and tokens' })).toBeChecked();
    await user.clear(within(form).getByLabelText('Confirm new password'));
    await user.type(within(form).getByLabelText('Confirm new password'), 'new-secret-1');
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await within(form).findByText('Password changed. Every other device is signed out.')).toBeInTheDocument();
    expect(calls.find((c) => c.path === 'auth.changePassword')?.input).toEqual({ currentPassword: 'old-secret', newPassword: 'new-secret-1', confirmPassword: 'new-secret-1', removeKeys: true });
  }, 20_000);

  it('lists devices with a Sign out for each other one', async () => {
    const { calls } = renderAccount();
    const devices = await screen.findByRole('region', { name: 'Signed-in devices' });
    expect(await within(devices).findByText('Firefox 131 on Linux (this device)')).toBeInTheDocument();
    await userEvent.setup().click(within(devices).getByRole('button', { name: 'Sign out Safari 17 on iOS at 10.0.0.2' }));
    await expect.poll(() => calls.filter((c) => c.path === 'auth.signOutDevice').map((c) => c.input)).toEqual([{ id: 'b' }]);
    expect(within(devices).getAllByRole('button', { name: /^Sign out .* at / })).toHaveLength(1);
  });

  it('shows a new token once, lists it, and revokes one', async () => {
    renderAccount();
    const user = userEvent.setup();
    const section = await screen.findByRole('region', { name: 'Personal API tokens' });
    await user.type(within(section).getByLabelText('Label'), 'Home Assistant');
    await user.click(within(section).getByRole('button', { name: 'Create token' }));
    expect(await within(section).findByText(`site_${'a'.repeat(43)}`, { exact: false })).toBeInTheDocument();
    expect(await within(section).findByRole('button', { name: 'Revoke Home Assistant' })).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Revoke Old script' }));
    await expect.poll(() => within(section).queryByRole('button', { name: 'Revoke Old script' })).toBeNull();
  });

  it('makes a read-only token, or one of some areas, and lists their scopes', async () => {
    const { calls } = renderAccount();
    const user = userEvent.setup();
    const section = await screen.findByRole('region', { name: 'Personal API tokens' });
    await user.type(within(section).getByLabelText('Label'), 'Reader');
    await user.click(within(section).getByRole('radio', { name: 'Read only (every area)' }));
    await user.click(within(section).getByRole('button', { name: 'Create token' }));
    expect(await within(section).findByRole('row', { name: /Reader Read only/ })).toBeInTheDocument();
    await user.clear(within(section).getByLabelText('Label'));
    await user.type(within(section).getByLabelText('Label'), 'Shopping');
    await user.click(within(section).getByRole('radio', { name: 'Some areas' }));
    await user.selectOptions(within(section).getByRole('combobox', { name: 'todo' }), 'write');
    await user.selectOptions(within(section).getByRole('combobox', { name: 'house' }), 'read');
    await user.click(within(section).getByRole('button', { name: 'Create token' }));
    expect(calls.filter((c) => c.path === 'auth.createToken').map((c) => c.input)).toEqual([
      { label: 'Reader', scopes: ['*:read'] },
      { label: 'Shopping', scopes: ['house:read', 'todo:read', 'todo:write'] },
    ]);
  });

  it('asks a session that signed in long ago for the password again, then makes the token', async () => {
    const { calls } = renderAccount(true);
    const user = userEvent.setup();
    const section = await screen.findByRole('region', { name: 'Personal API tokens' });
    await user.type(within(section).getByLabelText('Label'), 'Garden');
    await user.click(within(section).getByRole('button', { name: 'Create token' }));
    const confirm = await within(section).findByRole('form', { name: 'Confirm it is you' });
    expect(confirm).toHaveTextContent(authMessages.confirmNeeded);
    await user.type(within(confirm).getByLabelText('Your password'), 'wrong');
    await user.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    expect(await within(confirm).findByText(authMessages.currentPasswordWrong)).toBeInTheDocument();
    await user.clear(within(confirm).getByLabelText('Your password'));
    await user.type(within(confirm).getByLabelText('Your password'), 'old-secret');
    await user.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    expect(await within(section).findByText(`site_${'a'.repeat(43)}`, { exact: false })).toBeInTheDocument();
    expect(within(section).queryByRole('form', { name: 'Confirm it is you' })).toBeNull();
    expect(calls.filter((c) => c.path === 'auth.createToken').map((c) => c.input)).toEqual([{ label: 'Garden', scopes: null }, { label: 'Garden', scopes: null }]);
  });
});
