import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithSite } from '../../test/render.tsx';
import { NotificationsCard } from './NotificationsCard.tsx';

/** The switches under "Tell me when" for a member of this level. */
async function kindsShown(level: number): Promise<string[]> {
  const view = renderWithSite(<NotificationsCard />, {
    path: '/personal/account',
    procedures: {
      'auth.status': () => ({ user: 'mia', level }),
      'notifications.settings': () => ({ muted: [], quietFrom: null, quietTo: null, timeZone: 'UTC' }),
    },
  });
  const group = await screen.findByRole('group', { name: 'Tell me when' });
  const labels = within(group)
    .getAllByRole('checkbox')
    .map((box) => box.closest('label')?.textContent?.trim() ?? '');
  view.unmount();
  return labels;
}

describe('NotificationsCard: only the kinds the member can receive', () => {
  it('a Friend (level 1) is not offered House, planning or admins\' kinds', async () => {
    expect(await kindsShown(1)).toEqual([
      'Your picture was approved',
      'A heart or a comment on your picture',
      'A game server you follow stopped answering',
      'A game server you follow answers again',
      'Your download finished',
      'On this day: pictures from earlier years (08:00)',
    ]);
  });

  it('Family (level 2) also gets House and the planning kinds, not the approvals', async () => {
    const shown = await kindsShown(2);
    expect(shown).toHaveLength(9);
    expect(shown).toEqual(expect.arrayContaining(['Added to House To Do / To Get', 'A chore is yours to do today (08:00)', 'You cook dinner tonight (15:00)']));
    expect(shown).not.toContain('A picture waits for approval');
    expect(shown).not.toContain('An account waits for approval');
  });

  it('an Admin (level 3) gets all 11', async () => {
    const shown = await kindsShown(3);
    expect(shown).toHaveLength(11);
    expect(shown).toEqual(expect.arrayContaining(['A picture waits for approval', 'An account waits for approval']));
  });
});
