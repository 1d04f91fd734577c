import type { Draft } from '../draft.ts';
import type { Success } from '../types.ts';

export function done(d: Draft): Success {
  return { ok: true, state: d.finish(), events: d.events };
}
