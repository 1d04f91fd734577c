import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithSite } from '../../test/render.tsx';
import PreauthPage from './PreauthPage.tsx';

describe('PreauthPage', () => {
  it('tells a pending account to wait', async () => {
    renderWithSite(<PreauthPage />, { path: '/preauth', procedures: { 'auth.status': () => ({ user: 'newbie', level: 0 }) } });
    expect(await screen.findByRole('heading', { name: 'Account pending' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/preauth');
  });

  it('sends a member who is already approved to the hub', async () => {
    renderWithSite(<PreauthPage />, { path: '/preauth', procedures: { 'auth.status': () => ({ user: 'friend', level: 1 }) } });
    await expect.poll(() => screen.getByTestId('location').textContent).toBe('/personal');
  });
});
