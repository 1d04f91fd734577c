import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithSite } from '../../test/render.tsx';
import UploadPage from './UploadPage.tsx';

/** The page with one chosen file whose date suggestion (its modified date, 5 January 2023) has arrived. */
async function pageWithOneFile() {
  renderWithSite(<UploadPage />, { path: '/personal/upload-pictures', procedures: { 'auth.status': () => ({ user: 'owner', level: 3 }) } });
  const user = userEvent.setup();
  const file = new File([new Uint8Array([1, 2, 3])], 'beach.png', { type: 'image/png', lastModified: new Date(2023, 0, 5, 12).getTime() });
  await user.upload(screen.getByLabelText('Choose pictures or videos, or drop them here'), file);
  const row = within(screen.getByTestId('upload-list')).getByRole('listitem');
  await expect.poll(() => within(row).getByLabelText<HTMLInputElement>('Year').value).toBe('2023');
  return { user, row, month: within(row).getByLabelText<HTMLInputElement>('Month'), day: within(row).getByLabelText<HTMLInputElement>('Day') };
}

// Typing is slow on a loaded machine: room beyond vitest's 5 s.
describe('the upload page: its date fields', { timeout: 20_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('keeps "2,5" in Month as typed, says a month is a whole number, and uploads nothing until it is put right', async () => {
    const open = vi.spyOn(XMLHttpRequest.prototype, 'open');
    const { user, row, month } = await pageWithOneFile();
    expect(month).toHaveAttribute('inputmode', 'numeric');
    await user.clear(month);
    await user.type(month, '2,5');
    expect(month.value).toBe('2,5');
    expect(month).toHaveAttribute('aria-invalid', 'true');
    expect(within(row).getByRole('alert')).toHaveTextContent('Month must be a whole number from 1 to 12, with no decimals');

    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(screen.getByTestId('upload-refusal')).toHaveTextContent('Nothing was uploaded: check the date of beach.png (its message is under the date)');
    expect(open).not.toHaveBeenCalled();
    expect(screen.getByTestId('upload-list').querySelectorAll('li')).toHaveLength(1);
    expect(month.value).toBe('2,5');

    await user.clear(month);
    await user.type(month, '2');
    expect(within(row).queryByRole('alert')).toBeNull();
    expect(screen.queryByTestId('upload-refusal')).toBeNull();
  });

  it('keeps "5a" in Month and says it is not a number, instead of dropping the letter', async () => {
    const { user, row, month } = await pageWithOneFile();
    await user.clear(month);
    await user.type(month, '5a');
    expect(month.value).toBe('5a');
    expect(within(row).getByRole('alert')).toHaveTextContent(/^Month must be a whole number from 1 to 12$/);
  });

  it('keeps the partial-date rules: a day needs its month, and the day must exist in that month', async () => {
    const { user, row, month, day } = await pageWithOneFile();
    await user.clear(month);
    expect(within(row).getByRole('alert')).toHaveTextContent('Month is needed for a day: leave the day blank when the month is unknown');
    await user.clear(day);
    expect(within(row).queryByRole('alert')).toBeNull();
    await user.type(month, '2');
    await user.type(day, '29');
    expect(within(row).getByRole('alert')).toHaveTextContent('Day must be from 1 to 28 in February 2023');
  });
});
