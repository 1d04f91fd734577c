import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Navbar, type NavLinkProps } from './Navbar.tsx';

function A({ to, children, ...rest }: NavLinkProps) {
  return (
    <a href={to} {...rest}>
      {children}
    </a>
  );
}

function setWidth(width: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width });
}

const tabsOf = () =>
  within(screen.getByRole('navigation', { name: 'Main' }))
    .getAllByRole('link')
    .filter((link) => link.classList.contains('navbar-link'))
    .map((link) => link.textContent);

describe('Navbar', () => {
  it('shows About and Login to visitors, with the title linking to /about', () => {
    setWidth(1280);
    render(<Navbar status={{ user: null, level: 0 }} clickToToggle={false} Link={A} />);
    expect(tabsOf()).toEqual(['Sample Owner', 'About', 'Login']);
    expect(screen.getByRole('link', { name: 'Sample Owner' })).toHaveAttribute('href', '/about');
  });

  it("puts the bell at the end of the title's slot, in the bar but outside the Main navigation", () => {
    setWidth(390);
    render(<Navbar status={{ user: 'm', level: 1 }} clickToToggle={false} Link={A} bell={<a href="/personal/notifications">bell</a>} />);
    expect(tabsOf()).toEqual(['S.O.', 'About', 'Cool Stuff▾', 'Logout▾']);
    const bell = screen.getByRole('link', { name: 'bell' });
    expect(within(screen.getByRole('navigation', { name: 'Main' })).queryByRole('link', { name: 'bell' })).toBeNull();
    expect(screen.getByTestId('navbar')).toContainElement(bell);
    // Four slots of 97.5 px: the bell's 40 px end where the title's slot ends.
    expect(bell.parentElement).toHaveStyle({ left: '57.5px' });
    expect(screen.getByTestId('navbar')).toHaveClass('has-bell');
  });

  it('gives an admin the wide bar at 6 units and the collapsed bar below', () => {
    setWidth(6 * 118);
    const { unmount } = render(<Navbar status={{ user: 'o', level: 3 }} clickToToggle={false} Link={A} />);
    expect(screen.getByTestId('navbar')).toHaveAttribute('data-layout', 'wide');
    expect(tabsOf()).toEqual(['Sample Owner', 'About', 'Contact▾', 'Cool Stuff▾', 'Admin▾', 'Logout▾']);
    expect(screen.getByRole('link', { name: 'Sample Owner' })).toHaveAttribute('href', '/personal');
    unmount();
    setWidth(6 * 118 - 1);
    render(<Navbar status={{ user: 'o', level: 3 }} clickToToggle={false} Link={A} />);
    expect(screen.getByTestId('navbar')).toHaveAttribute('data-layout', 'narrow');
    expect(tabsOf()).toEqual(['S.O.', 'About', 'Cool Stuff▾', 'Logout▾']);
  });

  it('keeps a Friend wide at 4 units, with no Admin group', () => {
    setWidth(4 * 118);
    render(<Navbar status={{ user: 'f', level: 1 }} clickToToggle={false} Link={A} />);
    expect(screen.getByTestId('navbar')).toHaveAttribute('data-layout', 'wide');
    expect(tabsOf()).toEqual(['Sample Owner', 'About', 'Contact▾', 'Cool Stuff▾', 'Logout▾']);
  });

  it('recalculates on resize at most once per 1000 ms', () => {
    vi.useFakeTimers();
    setWidth(1280);
    render(<Navbar status={{ user: 'o', level: 3 }} clickToToggle={false} Link={A} />);
    const bar = screen.getByTestId('navbar');
    expect(bar).toHaveAttribute('data-layout', 'wide');
    act(() => {
      setWidth(1200);
      window.dispatchEvent(new Event('resize'));
    });
    // The first resize is applied at once (still wide); the next within a second waits.
    act(() => {
      setWidth(500);
      window.dispatchEvent(new Event('resize'));
    });
    expect(bar).toHaveAttribute('data-layout', 'wide');
    act(() => vi.advanceTimersByTime(999));
    expect(bar).toHaveAttribute('data-layout', 'wide');
    act(() => vi.advanceTimersByTime(1));
    expect(bar).toHaveAttribute('data-layout', 'narrow');
  });

  it('opens a dropdown on hover and hides it 50 ms after the pointer leaves', () => {
    vi.useFakeTimers();
    setWidth(1280);
    render(<Navbar status={{ user: 'o', level: 3 }} clickToToggle={false} Link={A} />);
    const tab = screen.getByRole('link', { name: /Cool Stuff/ }).closest('li');
    if (!tab) throw new Error('no tab');
    fireEvent.mouseEnter(tab);
    expect(tab).toHaveClass('open');
    fireEvent.mouseLeave(tab);
    act(() => vi.advanceTimersByTime(49));
    expect(tab).toHaveClass('open');
    act(() => vi.advanceTimersByTime(1));
    expect(tab).not.toHaveClass('open');
  });

  it('copies contact details with the exact alert texts', async () => {
    setWidth(1280);
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    render(<Navbar status={{ user: 'o', level: 1 }} clickToToggle={false} Link={A} />);
    fireEvent.click(screen.getByRole('button', { name: /Discord/ }));
    fireEvent.click(screen.getByRole('button', { name: /Phone/ }));
    fireEvent.click(screen.getByRole('button', { name: /Steam/ }));
    await vi.waitFor(() => expect(alert).toHaveBeenCalledTimes(3));
    expect(alert.mock.calls.map((c) => c[0])).toEqual([
      'Discord username copied to clipboard',
      'Phone number copied to clipboard',
      'Steam friend code copied to clipboard',
    ]);
    expect(writeText).toHaveBeenCalledWith('sample_owner');
  });

  it('shows a toggle button instead of scroll hiding when the user chose it', () => {
    setWidth(1280);
    render(<Navbar status={{ user: 'o', level: 1 }} clickToToggle Link={A} />);
    fireEvent.click(screen.getByRole('button', { name: 'Hide navigation bar' }));
    expect(screen.getByTestId('navbar')).toHaveClass('navbar-hidden');
    fireEvent.click(screen.getByRole('button', { name: 'Show navigation bar' }));
    expect(screen.getByTestId('navbar')).not.toHaveClass('navbar-hidden');
  });

  it('keeps dropdown items out of the tab order until the keyboard enters the menu; arrows move, Escape closes', () => {
    setWidth(1280);
    render(<Navbar status={{ user: 'o', level: 3 }} clickToToggle={false} Link={A} />);
    const tabLink = screen.getByRole('link', { name: /Cool Stuff/ });
    const tab = tabLink.closest('li');
    if (!tab) throw new Error('no tab');
    act(() => tabLink.focus());
    expect(tab).toHaveClass('open');
    const items = () => [...tab.querySelectorAll<HTMLElement>('.navbar-item')];
    expect(items().length).toBeGreaterThan(3);
    expect(items().every((item) => item.tabIndex === -1)).toBe(true);
    fireEvent.keyDown(tabLink, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items()[0]);
    expect(items().every((item) => item.tabIndex === 0)).toBe(true);
    fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items()[1]);
    fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'ArrowUp' });
    fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(items().at(-1));
    fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'Escape' });
    expect(document.activeElement).toBe(tabLink);
    expect(tab).not.toHaveClass('open');
    expect(items().every((item) => item.tabIndex === -1)).toBe(true);
  });
});

describe('the waiting count', () => {
  it('shows an admin the accounts waiting for approval on the Admin tab and its Admin Dash item', () => {
    setWidth(1280);
    render(<Navbar status={{ user: 'o', level: 3 }} clickToToggle={false} Link={A} waiting={2} />);
    expect(screen.getByTestId('nav-waiting')).toHaveTextContent('2, 2 accounts waiting for approval');
    expect(screen.getByRole('link', { name: /^Admin Dash/ })).toHaveTextContent('Admin Dash2 waiting');
  });

  it('shows nothing when none wait', () => {
    setWidth(1280);
    render(<Navbar status={{ user: 'o', level: 3 }} clickToToggle={false} Link={A} waiting={0} />);
    expect(screen.queryByTestId('nav-waiting')).toBeNull();
  });
});
