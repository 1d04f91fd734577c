import { z } from 'zod';

export const levelSchema = z.number().int().min(0).max(3);

export const userRow = z.object({ name: z.string(), level: levelSchema });
export type UserRow = z.infer<typeof userRow>;

export const setLevelInput = z.object({ name: z.string().min(1), level: levelSchema });
export type SetLevelInput = z.infer<typeof setLevelInput>;

export const adminMessages = {
  unknownUser: 'No user has that name',
  lastAdmin: 'The last admin cannot lower their own level',
} as const;
