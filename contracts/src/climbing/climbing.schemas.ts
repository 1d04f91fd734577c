import { z } from 'zod';
import { rowId } from '../row-id.ts';
import { text } from '../text.ts';

export const CLIMBING_GUEST_MAX = 100;

export const climbingMessages = {
  allowanceUsed: (allowance: number) =>
    `All ${allowance} guest ${allowance === 1 ? 'pass' : 'passes'} for this month are used; try again next month`,
  notFound: 'No such guest pass',
  notYours: 'Only the member who added a pass, or an admin, can remove it',
  badId: 'A pass is named by its id, a whole number',
} as const;

export type ClimbingPass = {
  id: number;
  guest: string;
  /** The member who added it (null once that account is gone). */
  addedBy: string | null;
  /** When it was added, ISO 8601. */
  addedAt: string;
  /** True when the viewer may remove it: its adder or an admin. */
  canRemove: boolean;
};

export type ClimbingPasses = {
  guests: ClimbingPass[];
  /** Passes added since the start of the current month. */
  usedThisMonth: number;
  /** The month's allowance (CLIMBING_PASSES_PER_MONTH), or null when there is none. */
  allowance: number | null;
};

export const addClimbingPassInput = z.object({ guest: text({ label: 'Guest', max: CLIMBING_GUEST_MAX, trim: true, min: 1 }) });
export type AddClimbingPassInput = z.infer<typeof addClimbingPassInput>;

export const removeClimbingPassInput = z.object({
  id: rowId(climbingMessages.badId),
});
export type RemoveClimbingPassInput = z.infer<typeof removeClimbingPassInput>;
