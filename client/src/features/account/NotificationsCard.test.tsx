import { fireEvent, screen, within } from '@testing-library/react';
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

  it('Family (level 2) also gets House, the planning kinds and their webhooks\' pauses, not the approvals', async () => {
    const shown = await kindsShown(2);
    expect(shown).toHaveLength(10);
    expect(shown).toEqual(expect.arrayContaining(['Added to House To Do / To Get', 'A chore is yours to do today (08:00)', 'You cook dinner tonight (15:00)', 'A webhook of yours was paused after failing for a day']));
    expect(shown).not.toContain('A picture waits for approval');
    expect(shown).not.toContain('An account waits for approval');
  });

  it('an Admin (level 3) gets all 12', async () => {
    const shown = await kindsShown(3);
    expect(shown).toHaveLength(12);
    expect(shown).toEqual(expect.arrayContaining(['A picture waits for approval', 'An account waits for approval']));
  });
});

describe('NotificationsCard: the member\'s time zone', () => {
  const device = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const setUp = (timeZone: string | null) => {
    let saved = { muted: [] as string[], quietFrom: null, quietTo: null, timeZone };
    return renderWithSite(<NotificationsCard />, {
      path: '/personal/account',
      procedures: {
        'auth.status': () => ({ user: 'mia', level: 2 }),
        'notifications.settings': () => saved,
        'notifications.setSettings': (input) => {
          const i = input as { muted: string[]; timeZone?: string; deviceTimeZone?: string };
          saved = { ...saved, muted: i.muted, timeZone: i.timeZone ?? saved.timeZone ?? i.deviceTimeZone ?? null };
          return saved;
        },
      },
    });
  };

  it('a switch sends this device\'s zone only as deviceTimeZone (never as the member\'s timeZone); the select sends timeZone', async () => {
    const view = setUp('Asia/Bangkok');
    const zone = await screen.findByLabelText('Time zone');
    expect((zone as HTMLSelectElement).value).toBe('Asia/Bangkok');
    (await screen.findByLabelText('Added to House To Do / To Get')).click();
    await expect.poll(() => view.calls.filter((c) => c.path === 'notifications.setSettings').length).toBe(1);
    expect(view.calls.find((c) => c.path === 'notifications.setSettings')?.input).toEqual({ muted: ['house.added'], quietFrom: null, quietTo: null, deviceTimeZone: device });
    fireEvent.change(zone, { target: { value: 'Europe/Oslo' } });
    await expect.poll(() => view.calls.filter((c) => c.path === 'notifications.setSettings').length).toBe(2);
    expect(view.calls.filter((c) => c.path === 'notifications.setSettings')[1]?.input).toMatchObject({ timeZone: 'Europe/Oslo', deviceTimeZone: device });
    await expect.poll(() => (zone as HTMLSelectElement).value).toBe('Europe/Oslo');
    view.unmount();
  });

  it('a member with no zone yet is shown this device\'s, and told the first change keeps it', async () => {
    const view = setUp(null);
    expect(((await screen.findByLabelText('Time zone')) as HTMLSelectElement).value).toBe(device);
    expect(screen.getByTestId('notification-time-zone-note').textContent).toBe(`Not saved yet: your first change here keeps this device's zone, ${device}.`);
    view.unmount();
  });
});
