import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ActionDots, HealthBar } from './bits.tsx';

const dots = () => screen.getByTestId('action-dots').querySelectorAll('.tower-dot');
const filled = () => screen.getByTestId('action-dots').querySelectorAll('.tower-dot.filled');

describe('ActionDots', () => {
  it('shows one dot per action, filled for the actions left', () => {
    render(<ActionDots actions={2} max={3} />);
    expect(dots()).toHaveLength(3);
    expect(filled()).toHaveLength(2);
    expect(screen.getByRole('img', { name: '2 of 3 actions left' })).toBeInTheDocument();
  });

  it('shows only empty dots when the survivor has no actions left', () => {
    render(<ActionDots actions={0} max={3} />);
    expect(dots()).toHaveLength(3);
    expect(filled()).toHaveLength(0);
  });

  it('shows all dots filled at the start of a turn', () => {
    render(<ActionDots actions={3} max={3} />);
    expect(filled()).toHaveLength(3);
    expect([...dots()].map((d) => d.getAttribute('data-filled'))).toEqual(['true', 'true', 'true']);
  });
});

describe('HealthBar', () => {
  it('reports the health as a meter and never overflows', () => {
    const { container } = render(<HealthBar hp={7} hpMax={5} label="Ada" />);
    const meter = screen.getByRole('meter', { name: 'Ada health' });
    expect(meter).toHaveAttribute('aria-valuenow', '7');
    expect(container.querySelector<HTMLElement>('.tower-health-fill')?.style.width).toBe('100%');
  });

  it('is empty and red for a survivor below 0', () => {
    const { container } = render(<HealthBar hp={-1} hpMax={5} label="Bram" />);
    const fill = container.querySelector<HTMLElement>('.tower-health-fill');
    expect(fill?.style.width).toBe('0%');
    expect(fill).toHaveClass('bad');
  });
});
