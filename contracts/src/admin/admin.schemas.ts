import { z } from 'zod';
import { NAME_MAX } from '../auth/auth.rules.ts';
import { text } from '../text.ts';

const LEVEL_MESSAGE = 'The level must be 0, 1, 2 or 3';
export const levelSchema = z
  .number({ message: LEVEL_MESSAGE })
  .int({ message: LEVEL_MESSAGE })
  .min(0, { message: LEVEL_MESSAGE })
  .max(3, { message: LEVEL_MESSAGE });

export const userRow = z.object({ name: z.string(), level: levelSchema });
export type UserRow = z.infer<typeof userRow>;

export const setLevelInput = z.object({
  name: text({ label: 'Username', max: NAME_MAX * 4, trim: true, min: 1, emptyMessage: 'Name the user whose level to set' }),
  level: levelSchema,
});
export type SetLevelInput = z.infer<typeof setLevelInput>;

export const resetLinkInput = z.object({ name: text({ label: 'Username', max: NAME_MAX * 4, trim: true, min: 1 }) });
/** `path` is the link on this site ('/reset-password#…'); `url` the whole link when PUBLIC_URL names the site, else null. */
export const resetLinkOutput = z.object({ name: z.string(), path: z.string(), url: z.string().nullable(), expiresAt: z.string() });
export type ResetLink = z.infer<typeof resetLinkOutput>;

export const waitingCountOutput = z.object({ count: z.number().int() });

/** The hub's line: '1 account waiting for approval', '3 accounts waiting for approval'. */
export const waitingText = (count: number) => `${count} account${count === 1 ? '' : 's'} waiting for approval`;

export const adminMessages = {
  unknownUser: 'No user has that name',
  lastAdmin: 'The last admin cannot lower their own level',
} as const;
