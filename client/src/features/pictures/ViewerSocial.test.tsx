import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { PictureSocial } from '@site/contracts/pictures';
import { SocialPanel, type SocialActions } from './ViewerSocial.tsx';

const social = (change: Partial<PictureSocial> = {}): PictureSocial => ({
  pictureId: 7,
  place: null,
  hearts: { count: 3, mine: false, names: ['Ann', 'Bob', 'Grandma'] },
  comments: [
    { id: 1, author: 'Ann', text: 'Lovely!\nSo blue.', createdAt: '2026-07-15T10:20:00.000Z', editedAt: null, mine: true, mayDelete: true },
    { id: 2, author: 'Bob', text: 'Where is this?', createdAt: '2026-07-15T11:00:00.000Z', editedAt: '2026-07-15T11:05:00.000Z', mine: false, mayDelete: false },
  ],
  ...change,
});

function actions() {
  return {
    heart: vi.fn<(on: boolean) => void>(),
    comment: vi.fn((_text: string, done: () => void) => done()),
    edit: vi.fn((_id: number, _text: string, done: () => void) => done()),
    remove: vi.fn<(commentId: number) => void>(),
    busy: false,
    error: null as string | null,
  } satisfies SocialActions;
}

describe('the viewer’s hearts and comments', () => {
  it('shows the count, who gave them, and each comment with author, time and edited mark', () => {
    render(<SocialPanel social={social()} actions={actions()} />);
    expect(screen.getByTestId('heart-summary')).toHaveTextContent('3 hearts: Ann, Bob and Grandma');
    const comments = screen.getAllByTestId('social-comment');
    expect(comments.map((c) => c.querySelector('strong')?.textContent)).toEqual(['Ann', 'Bob']);
    expect(comments[0]?.querySelector('time')).toHaveAttribute('dateTime', '2026-07-15T10:20:00.000Z');
    expect(comments[0]?.querySelector('.social-comment-text')?.textContent).toBe('Lovely!\nSo blue.');
    expect(comments[1]).toHaveTextContent('(edited)');
    expect(comments[0]).not.toHaveTextContent('(edited)');
  });

  it('toggles the heart: gives one when not given, takes it back when given', async () => {
    const a = actions();
    const { rerender } = render(<SocialPanel social={social()} actions={a} />);
    const button = screen.getByRole('button', { name: 'Heart' });
    expect(button).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(button);
    expect(a.heart).toHaveBeenLastCalledWith(true);
    rerender(<SocialPanel social={social({ hearts: { count: 4, mine: true, names: ['Ann', 'Bob', 'Grandma', 'Me'] } })} actions={a} />);
    const on = screen.getByRole('button', { name: 'Hearted' });
    expect(on).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(on);
    expect(a.heart).toHaveBeenLastCalledWith(false);
    rerender(<SocialPanel social={social({ hearts: { count: 1, mine: false, names: ['Ann'] } })} actions={a} />);
    expect(screen.getByTestId('heart-summary')).toHaveTextContent('1 heart: Ann');
  });

  it('sends a comment and clears the field; Edit on one’s own only, Delete where the server allows', async () => {
    const a = actions();
    render(<SocialPanel social={social()} actions={a} />);
    const send = screen.getByRole('button', { name: 'Comment' });
    expect(send).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Add a comment'), 'Beautiful');
    await userEvent.click(send);
    expect(a.comment).toHaveBeenCalledWith('Beautiful', expect.any(Function));
    expect(screen.getByLabelText('Add a comment')).toHaveValue('');

    const [mine, theirs] = screen.getAllByTestId('social-comment');
    if (!mine || !theirs) throw new Error('two comments expected');
    expect(within(theirs).queryByRole('button')).toBeNull();
    await userEvent.click(within(mine).getByRole('button', { name: /^Edit your comment/ }));
    const field = within(mine).getByLabelText('Edited comment');
    await userEvent.clear(field);
    await userEvent.type(field, 'Lovely.');
    await userEvent.click(within(mine).getByRole('button', { name: 'Save' }));
    expect(a.edit).toHaveBeenCalledWith(1, 'Lovely.', expect.any(Function));

    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    await userEvent.click(within(mine).getByRole('button', { name: /^Delete your comment/ }));
    expect(confirm).toHaveBeenCalledWith('Delete this comment?');
    expect(a.remove).toHaveBeenCalledWith(1);
    confirm.mockRestore();
  });

  it("an admin's panel offers Delete on another's comment, and shows the server's refusal", () => {
    const a = { ...actions(), error: 'Comment may be at most 2000 characters' };
    const forAdmin = social();
    forAdmin.comments = forAdmin.comments.map((c) => ({ ...c, mine: false, mayDelete: true }));
    render(<SocialPanel social={forAdmin} actions={a} />);
    expect(screen.getByRole('button', { name: /^Delete Bob's comment/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Edit/ })).toBeNull();
    expect(screen.getByRole('alert')).toHaveTextContent('Comment may be at most 2000 characters');
  });

  it('read-only (a guest): hearts and comments shown, nothing to press or type', () => {
    render(<SocialPanel social={social({ hearts: { count: 0, mine: false, names: [] } })} />);
    expect(screen.getByTestId('heart-summary')).toHaveTextContent('No hearts yet');
    expect(screen.getAllByTestId('social-comment')).toHaveLength(2);
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByRole('textbox')).toBeNull();
  });
});
