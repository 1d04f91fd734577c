import { z } from 'zod';
import { NAMED_ISSUE } from './text.ts';

/**
 * A whole number in a range (missing, null, text and fractions refused alike), refused with one
 * message that names its field ('Year must be ...'): finance's years and entry ids, dev-dashboard's run ids.
 */
export const wholeNumber = (min: number, max: number, message: string) =>
  z.unknown().optional().transform((v, ctx): number => {
    if (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max) return v;
    ctx.addIssue({ code: 'custom', message, params: NAMED_ISSUE });
    return z.NEVER;
  });
