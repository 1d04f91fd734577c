import { Route } from 'react-router-dom';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeEventSource } from '../../test/event-source.ts';
import { FakeTrpcError, SIGNED_OUT, renderWithSite } from '../../test/render.tsx';
import { authMessages } from '@site/contracts/auth';
import LoginPage from './LoginPage.tsx';
import PreauthPage from './PreauthPage.tsx';

const panel = (name: string) => screen.getByRole('form', { name });

async function fillSignup(name: string, password: string, confirm: string) {
  const form = await screen.findByRole('form', { name: 'Create Account' });
  const user = userEvent.setup();
  for (const [label, value] of [
    ['Name', name],
    ['Password', password],
    ['Confirm Password', confirm],
  ] as const) {
    const input = within(form).getByLabelText(label);
    await user.clear(input);
    if (value) await user.type(input, value);
  }
  await user.click(within(form).getByRole('button', { name: 'Make Account' }));
}

describe('LoginPage sign-up checks', () => {
  // The pending page follows its own account over the live feed.
  beforeEach(() => {
    FakeEventSource.all = [];
    vi.stubGlobal('EventSource', FakeEventSource);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('checks in the spec order: name, matching passwords, then password', async () => {
    const { calls } = renderWithSite(<LoginPage />, { path: '/login', procedures: { 'auth.status': () => SIGNED_OUT } });
    await fillSignup('', 'a', 'b');
    expect(within(panel('Create Account')).getByRole('alert')).toHaveTextContent('Username may not be empty');
    await fillSignup('   ', '', '');
    expect(within(panel('Create Account')).getByRole('alert')).toHaveTextContent('Username may not be empty');
    await fillSignup('sam', 'a', 'b');
    expect(within(panel('Create Account')).getByRole('alert')).toHaveTextContent('Password and Confirm Password do not match');
    await fillSignup('sam', '', '');
    expect(within(panel('Create Account')).getByRole('alert')).toHaveTextContent('Password may not be empty');
    // Nothing was sent, and the login panel's bubble stayed empty.
    expect(calls.filter((c) => c.path === 'auth.signup')).toEqual([]);
    expect(within(panel('Log In')).queryByRole('alert')).toBeNull();
  });

  it('sends a valid sign-up and shows the server message in the sign-up panel', async () => {
    const { calls } = renderWithSite(<LoginPage />, {
      path: '/login',
      procedures: {
        'auth.status': () => SIGNED_OUT,
        'auth.signup': () => {
          throw new FakeTrpcError('That username is already taken');
        },
      },
    });
    await fillSignup('sam', 'pw', 'pw');
    expect(await within(panel('Create Account')).findByRole('alert')).toHaveTextContent('That username is already taken');
    expect(calls.find((c) => c.path === 'auth.signup')?.input).toEqual({ name: 'sam', password: 'pw', confirmPassword: 'pw' });
  });

  it('asks for the setup code when the server says the first account needs it, and sends it', async () => {
    const { calls } = renderWithSite(<LoginPage />, {
      path: '/login',
      procedures: {
        'auth.status': () => SIGNED_OUT,
        'auth.signup': (input) => {
          const code = (input as { setupCode?: string }).setupCode;
          if (code === undefined) throw new FakeTrpcError(authMessages.setupCodeNeeded, {}, 403);
          if (code !== 'ABCDE-FGHJK') throw new FakeTrpcError(authMessages.setupCodeWrong, {}, 403);
          return { user: 'owner', level: 3 };
        },
      },
    });
    const form = await screen.findByRole('form', { name: 'Create Account' });
    expect(within(form).queryByLabelText('Setup code')).toBeNull();
    await fillSignup('owner', 'long enough pw', 'long enough pw');
    expect(await within(form).findByRole('alert')).toHaveTextContent(authMessages.setupCodeNeeded);
    const user = userEvent.setup();
    await user.type(within(form).getByLabelText('Setup code'), 'WRONG');
    await user.click(within(form).getByRole('button', { name: 'Make Account' }));
    await within(form).findByText(authMessages.setupCodeWrong);
    await user.clear(within(form).getByLabelText('Setup code'));
    await user.type(within(form).getByLabelText('Setup code'), 'ABCDE-FGHJK');
    await user.click(within(form).getByRole('button', { name: 'Make Account' }));
    await expect.poll(() => calls.filter((c) => c.path === 'auth.signup').length).toBe(3);
    expect(calls.filter((c) => c.path === 'auth.signup').at(-1)?.input).toEqual({
      name: 'owner',
      password: 'long enough pw',
      confirmPassword: 'long enough pw',
      setupCode: 'ABCDE-FGHJK',
    });
  });

  it('shows a failed login in the login panel, and sends a pending account to /preauth with the message', async () => {
    let pending = false;
    renderWithSite(<LoginPage />, {
      path: '/login',
      extraRoutes: <Route path="/preauth" element={<PreauthPage />} />,
      procedures: {
        'auth.status': () => SIGNED_OUT,
        'auth.login': () => {
          if (pending) throw new FakeTrpcError('Your account is created but must be manually authenticated. Contact the site owner.', { preauth: true }, 403);
          throw new FakeTrpcError('Incorrect username or password', {}, 401);
        },
      },
    });
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Log In' });
    await user.type(within(form).getByLabelText('Name'), 'sam');
    await user.click(within(form).getByRole('button', { name: 'Login' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Incorrect username or password');
    expect(within(panel('Create Account')).queryByRole('alert')).toBeNull();

    pending = true;
    await user.click(within(form).getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('heading', { name: 'Account pending' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/preauth');
    expect(screen.getByText('Your account is created but must be manually authenticated. Contact the site owner.')).toBeInTheDocument();
  });

  it('redirects a signed-in visitor away', async () => {
    renderWithSite(<LoginPage />, { path: '/login', procedures: { 'auth.status': () => ({ user: 'sam', level: 1 }) } });
    expect(await screen.findByTestId('location')).toHaveTextContent('/login');
    await screen.findByText('/personal');
  });
});

describe('LoginPage on a touch screen', () => {
  const coarse = (matches: boolean) =>
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: matches && query === '(pointer: coarse)', media: query, addEventListener: () => {}, removeEventListener: () => {} }));

  it('tells keyboard users to hold ctrl, and touch users nothing: their Enter ("Go") logs in', async () => {
    coarse(false);
    try {
      const first = renderWithSite(<LoginPage />, { path: '/login', procedures: { 'auth.status': () => SIGNED_OUT } });
      expect(await screen.findByText(/hold ctrl and press Enter/)).toBeInTheDocument();
      first.unmount();
      coarse(true);
      const { calls } = renderWithSite(<LoginPage />, { path: '/login', procedures: { 'auth.status': () => SIGNED_OUT, 'auth.login': () => ({ user: 'sam', level: 1 }) } });
      const form = await screen.findByRole('form', { name: 'Log In' });
      expect(screen.queryByText(/hold ctrl/i)).not.toBeInTheDocument();
      // A finger's tap, then the phone's keyboard.
      await userEvent.pointer({ keys: '[TouchA]', target: within(form).getByLabelText('Name') });
      await userEvent.type(within(form).getByLabelText('Name'), 'sam', { skipClick: true });
      within(form).getByLabelText('Password').focus();
      await userEvent.type(within(form).getByLabelText('Password'), 'secret{Enter}', { skipClick: true });
      expect(calls.filter((c) => c.path === 'auth.login')).toHaveLength(1);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
