import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CTRL_ENTER_HINT, TextInput } from './TextInput.tsx';

function Form({ onSubmit }: { onSubmit: () => void }) {
  const [value, setValue] = useState('');
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <TextInput label="Task" value={value} onValueChange={setValue} />
    </form>
  );
}

describe('TextInput', () => {
  it('answers Enter alone with the hint and does not submit', async () => {
    const onSubmit = vi.fn();
    render(<Form onSubmit={onSubmit} />);
    await userEvent.type(screen.getByLabelText('Task'), 'milk{Enter}');
    expect(screen.getByText(CTRL_ENTER_HINT)).toBeInTheDocument();
    expect(CTRL_ENTER_HINT).toBe('Hold ctrl to submit with enter');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('submits its form on ctrl+Enter', async () => {
    const onSubmit = vi.fn();
    render(<Form onSubmit={onSubmit} />);
    await userEvent.type(screen.getByLabelText('Task'), 'milk{Control>}{Enter}{/Control}');
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(screen.queryByText(CTRL_ENTER_HINT)).not.toBeInTheDocument();
  });
});
