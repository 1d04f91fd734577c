import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CTRL_ENTER_HINT, TextInput } from './TextInput.tsx';

function Form({ onSubmit, multiline = false, enterSubmits = false }: { onSubmit: (value: string) => void; multiline?: boolean; enterSubmits?: boolean }) {
  const [value, setValue] = useState('');
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(value);
      }}
    >
      <TextInput label="Task" value={value} onValueChange={setValue} multiline={multiline} enterSubmits={enterSubmits} />
      <button type="submit">Add</button>
    </form>
  );
}

describe('TextInput', () => {
  it('multiline: a textarea where Enter starts a new line on a keyboard and ctrl+Enter sends the lines', async () => {
    const onSubmit = vi.fn();
    render(<Form onSubmit={onSubmit} multiline />);
    const field = screen.getByLabelText('Task');
    expect(field.tagName).toBe('TEXTAREA');
    await userEvent.type(field, 'milk{Enter}eggs');
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.queryByText(CTRL_ENTER_HINT)).not.toBeInTheDocument();
    await userEvent.type(field, '{Control>}{Enter}{/Control}');
    expect(onSubmit).toHaveBeenCalledWith('milk\neggs');
  });

  it('multiline: Enter sends on a touch screen', async () => {
    const onSubmit = vi.fn();
    render(<Form onSubmit={onSubmit} multiline />);
    const field = screen.getByLabelText('Task');
    await userEvent.pointer({ keys: '[TouchA]', target: field });
    await userEvent.type(field, 'milk{Enter}', { skipClick: true });
    expect(onSubmit).toHaveBeenCalledWith('milk');
  });

  it('answers Enter alone with the hint and does not submit', async () => {
    const onSubmit = vi.fn();
    render(<Form onSubmit={onSubmit} />);
    await userEvent.type(screen.getByLabelText('Task'), 'milk{Enter}');
    expect(screen.getByText(CTRL_ENTER_HINT)).toBeInTheDocument();
    expect(CTRL_ENTER_HINT).toBe('Hold ctrl to submit with enter');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('enterSubmits (a one-field form such as Add a tag): Enter alone submits on a keyboard, with no hint', async () => {
    const onSubmit = vi.fn();
    render(<Form onSubmit={onSubmit} enterSubmits />);
    await userEvent.type(screen.getByLabelText('Task'), 'beach{Enter}');
    expect(onSubmit).toHaveBeenCalledWith('beach');
    expect(screen.queryByText(CTRL_ENTER_HINT)).not.toBeInTheDocument();
  });

  it('submits its form on ctrl+Enter', async () => {
    const onSubmit = vi.fn();
    render(<Form onSubmit={onSubmit} />);
    await userEvent.type(screen.getByLabelText('Task'), 'milk{Control>}{Enter}{/Control}');
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(screen.queryByText(CTRL_ENTER_HINT)).not.toBeInTheDocument();
  });

  it('keeps the hint (and its reserved line) when the field loses focus, until the next keystroke', async () => {
    render(<Form onSubmit={vi.fn()} />);
    const hint = document.querySelector('.field-hint');
    expect(hint).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Task'), 'milk{Enter}');
    await userEvent.click(document.body);
    expect(screen.getByText(CTRL_ENTER_HINT)).toBe(hint);
    await userEvent.type(screen.getByLabelText('Task'), 's');
    expect(screen.queryByText(CTRL_ENTER_HINT)).not.toBeInTheDocument();
    expect(document.querySelector('.field-hint')).toBe(hint);
  });

  it('submits its form on Enter alone ("Go") when reached by touch, with no ctrl hint', async () => {
    const onSubmit = vi.fn();
    render(<Form onSubmit={onSubmit} />);
    const input = screen.getByLabelText('Task');
    await userEvent.pointer({ keys: '[TouchA]', target: input });
    await userEvent.type(input, 'milk{Enter}', { skipClick: true });
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(screen.queryByText(CTRL_ENTER_HINT)).not.toBeInTheDocument();
  });

  it('submits on Enter alone on a coarse-pointer screen before any tap (a keyboard opened by focus)', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === '(pointer: coarse)', media: query, addEventListener: () => {}, removeEventListener: () => {} }));
    try {
      const onSubmit = vi.fn();
      render(<Form onSubmit={onSubmit} />);
      screen.getByLabelText('Task').focus();
      await userEvent.keyboard('milk{Enter}');
      expect(onSubmit).toHaveBeenCalledTimes(1);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('shows what is wrong with the value under the field and marks it invalid', () => {
    render(<TextInput label="Port" value="2456,5" onValueChange={() => {}} error="Port must be a whole number" />);
    const input = screen.getByLabelText('Port');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Port must be a whole number');
  });
});
