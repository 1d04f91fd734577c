import { z } from 'zod';
import { NAME_MAX } from '../auth/auth.schemas.ts';
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

export const adminMessages = {
  unknownUser: 'No user has that name',
  lastAdmin: 'The last admin cannot lower their own level',
} as const;
