import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { NumberInput } from './NumberInput.tsx';
import type { NumberRules } from './number.ts';

function Field({ rules }: { rules: NumberRules }) {
  const [text, setText] = useState('');
  return (
    <>
      <NumberInput rules={rules} value={text} onValueChange={setText} />
      <output>{text}</output>
    </>
  );
}

describe('NumberInput', () => {
  it('keeps a decimal comma as typed and asks the phone for a keyboard with a separator', async () => {
    render(<Field rules={{ label: 'Servings', min: 1, max: 1000 }} />);
    const input = screen.getByLabelText('Servings');
    await userEvent.type(input, '2,5');
    expect(input).toHaveValue('2,5');
    expect(input).toHaveAttribute('inputmode', 'decimal');
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says at once that a whole-number field takes no decimals, and keeps every character', async () => {
    render(<Field rules={{ label: 'Port', whole: true, min: 1, max: 65535 }} />);
    const input = screen.getByLabelText('Port');
    expect(input).toHaveAttribute('inputmode', 'numeric');
    await userEvent.type(input, '2456,5');
    expect(input).toHaveValue('2456,5');
    expect(screen.getByRole('alert')).toHaveTextContent('Port must be a whole number from 1 to 65535, with no decimals');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    await userEvent.type(input, '{Backspace}{Backspace}');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
