import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, Route } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_COLORS, type Colors } from '@site/contracts/settings';
import { renderWithSite } from '../../test/render.tsx';
import { AA_RATIO, contrastRatio } from '../../lib/contrast.ts';
import SettingsPage, { LEAVE_UNSAVED, READABLE_BUTTON } from './SettingsPage.tsx';

function setup(saved: Colors = DEFAULT_COLORS) {
  let stored = saved;
  const result = renderWithSite(<SettingsPage />, {
    path: '/personal/settings',
    procedures: {
      'settings.colors': () => stored,
      'settings.navbarStyle': () => ({ clickToToggle: false }),
      'settings.saveColors': (input) => (stored = input as Colors),
      'settings.saveNavbarStyle': (input) => input,
    },
  });
  return { ...result, stored: () => stored };
}

const value = (label: string) => (screen.getByLabelText(label, { exact: true }) as HTMLInputElement).value;

describe('SettingsPage colours', () => {
  it('rotates every colour but links and errors, from where the slider started', async () => {
    setup();
    await screen.findByLabelText('Rotate All Colors');
    fireEvent.change(screen.getByLabelText('Rotate All Colors'), { target: { value: '90' } });
    expect(value('Links')).toBe(DEFAULT_COLORS.linkColor);
    expect(value('Errors')).toBe(DEFAULT_COLORS.errorColor);
    expect(value('Accents')).not.toBe(DEFAULT_COLORS.accentColor);
    expect(value('Background')).not.toBe(DEFAULT_COLORS.backgroundColor);
    // Painted on the page as you go.
    expect(document.documentElement.style.getPropertyValue('--accent-color')).toBe(value('Accents'));
    fireEvent.change(screen.getByLabelText('Rotate All Colors'), { target: { value: '0' } });
    expect(value('Accents')).toBe(DEFAULT_COLORS.accentColor);
  });

  it('keeps Save, Undo and Reset readable in colours below AA (the navbar at 1.1:1 stays the member\'s choice)', async () => {
    const unreadable = { ...DEFAULT_COLORS, menuColor: '#202020', foregroundColor: '#242424', backgroundColor: '#222222' };
    setup(unreadable);
    const buttons = [
      await screen.findByRole('button', { name: 'Save Colors' }),
      screen.getByRole('button', { name: 'Undo changes' }),
      screen.getByRole('button', { name: 'Reset Text/Foreground to default' }),
    ];
    expect(contrastRatio(READABLE_BUTTON.color, READABLE_BUTTON.background)).toBeGreaterThanOrEqual(AA_RATIO);
    for (const button of buttons) {
      expect(button.style.background).toBe('rgb(0, 31, 15)');
      expect(button.style.color).toBe('rgb(191, 223, 207)');
    }
    // The page itself stays in the member's colours.
    expect(document.documentElement.style.getPropertyValue('--foreground-color')).toBe('#242424');
  });

  it('shows a reset arrow only for colours that are not the default', async () => {
    setup({ ...DEFAULT_COLORS, linkColor: '#123456' });
    const reset = await screen.findByRole('button', { name: 'Reset Links to default' });
    expect(screen.getAllByRole('button', { name: /^Reset / })).toHaveLength(1);
    await userEvent.click(reset);
    expect(value('Links')).toBe(DEFAULT_COLORS.linkColor);
    expect(screen.queryAllByRole('button', { name: /^Reset / })).toHaveLength(0);
  });

  it('saves the draft with Save Colors', async () => {
    const { stored } = setup();
    await screen.findByLabelText('Menus');
    fireEvent.input(screen.getByLabelText('Menus'), { target: { value: '#112233' } });
    await userEvent.click(screen.getByRole('button', { name: 'Save Colors' }));
    await screen.findByText('Colors saved.');
    expect(stored().menuColor).toBe('#112233');
  });

  it('warns when light background, dark text and a 120 degree rotation put dark text on a dark menu, and offers a readable menu', async () => {
    setup({ ...DEFAULT_COLORS, backgroundColor: '#f5f5f0', foregroundColor: '#202020' });
    await screen.findByLabelText('Rotate All Colors');
    fireEvent.change(screen.getByLabelText('Rotate All Colors'), { target: { value: '120' } });
    expect(screen.getByText(/^Warning: \d+ pairs? (is|are) below WCAG AA \(4.5:1\)/)).toBeInTheDocument();
    const navbarRow = screen.getAllByTestId('contrast-row').find((row) => row.textContent?.includes('Navbar text on menus'));
    expect(navbarRow?.textContent).toMatch(/\d\.\d:1 \(too low\)/);
    const fix = screen.getAllByRole('button', { name: /^Use #[0-9a-f]{6} for Menus$/ })[0];
    if (!fix) throw new Error('no fix offered');
    await userEvent.click(fix);
    const after = screen.getAllByTestId('contrast-row').find((row) => row.textContent?.includes('Navbar text on menus'));
    expect(after?.textContent).not.toMatch(/too low/);
    // The reset arrows stay.
    expect(screen.getByRole('button', { name: 'Reset Menus to default' })).toBeInTheDocument();
  });

  it('words the default colours\' low pairs as advice, not an error, and draws every pair\'s sample', async () => {
    setup();
    const status = await screen.findByText(/^Tip: with the default colours \d+ pairs? (is|are) below WCAG AA \(4.5:1\)\. The suggestions below make them easier to read\.$/);
    expect(status).not.toHaveClass('contrast-warning');
    expect(screen.queryByText(/^Warning:/)).not.toBeInTheDocument();
    expect(screen.getAllByTestId('contrast-row').some((row) => row.textContent?.includes('(below AA)'))).toBe(true);
    const samples = screen.getAllByTestId('contrast-sample');
    expect(samples).toHaveLength(screen.getAllByTestId('contrast-row').length);
    // Text on the background: the foreground colour drawn on the background colour.
    const onBackground = screen.getAllByTestId('contrast-row').find((row) => row.textContent?.includes('Text on the background'));
    expect(onBackground?.querySelector('rect')?.getAttribute('fill')).toBe(DEFAULT_COLORS.backgroundColor);
    expect(onBackground?.querySelector('text')?.getAttribute('fill')).toBe(DEFAULT_COLORS.foregroundColor);
  });

  it('asks before leaving with previewed, unsaved colours, and stays when the answer is no', async () => {
    renderWithSite(
      <>
        <SettingsPage />
        <Link to="/personal/settings?x=1">Same page</Link>
        <Link to="/hub">Hub</Link>
      </>,
      {
        path: '/personal/settings',
        routePath: '/personal/settings',
        extraRoutes: <Route path="/hub" element={<p>Hub page</p>} />,
        procedures: { 'settings.colors': () => DEFAULT_COLORS, 'settings.navbarStyle': () => ({ clickToToggle: false }) },
      },
    );
    await screen.findByLabelText('Menus');
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    // Nothing changed: leaving asks nothing.
    await userEvent.click(screen.getByRole('link', { name: 'Same page' }));
    expect(confirm).not.toHaveBeenCalled();
    fireEvent.input(screen.getByLabelText('Menus'), { target: { value: '#112233' } });
    await userEvent.click(screen.getByRole('link', { name: 'Hub' }));
    expect(confirm).toHaveBeenCalledWith(LEAVE_UNSAVED);
    expect(screen.getByTestId('location')).toHaveTextContent('/personal/settings');
    await userEvent.click(screen.getByRole('link', { name: 'Hub' }));
    expect(confirm).toHaveBeenCalledTimes(2);
    expect(screen.getByTestId('location')).toHaveTextContent('/hub');
  });
});

