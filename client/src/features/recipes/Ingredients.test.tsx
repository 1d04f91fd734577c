import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { scaleQuantity } from '@site/contracts/recipes';
import { ServingsControl } from './Ingredients.tsx';

function Servings() {
  const [servings, setServings] = useState(2);
  return (
    <>
      <ServingsControl value={servings} onChange={setServings} />
      <output data-testid="oil">{scaleQuantity(10, servings, 2)} tbsp oil</output>
    </>
  );
}

describe('the servings control', () => {
  it('takes halves typed with a comma or a point: 2,5 servings of a recipe for 2 scales by 1.25, never by 12.5', async () => {
    render(<Servings />);
    const input = screen.getByLabelText('Servings');
    expect(input).toHaveAttribute('inputmode', 'decimal');
    await userEvent.clear(input);
    await userEvent.type(input, '2,5');
    expect(screen.getByTestId('oil')).toHaveTextContent('12.5 tbsp oil');
    await userEvent.clear(input);
    await userEvent.type(input, '3.5');
    expect(screen.getByTestId('oil')).toHaveTextContent('17.5 tbsp oil');
    // The buttons step by one from there.
    await userEvent.click(screen.getByRole('button', { name: 'Fewer servings' }));
    expect(input).toHaveValue('2.5');
    expect(screen.getByTestId('oil')).toHaveTextContent('12.5 tbsp oil');
  });

  it('says what is wrong with text or zero, and keeps the last good servings meanwhile', async () => {
    render(<Servings />);
    const input = screen.getByLabelText('Servings');
    await userEvent.clear(input);
    await userEvent.type(input, '0');
    expect(screen.getByRole('alert')).toHaveTextContent('Servings must be a number from 1 to 1000');
    expect(screen.getByTestId('oil')).toHaveTextContent('10 tbsp oil');
  });
});
