/**
 * The price rule (README.md of this folder), pure so it can be tested without a database.
 * Pressure is whole units: + for each unit the player bought of an item on an island, - for each
 * unit sold there, kept within ±MAX_PRESSURE, and moving one unit back towards 0 for each full
 * DRIFT_MS since it last changed.
 */
export const PRICE_STEP_PERCENT = 2;
export const MAX_PRESSURE = 40;
export const DRIFT_MS = 60_000;

export type PriceModifiers = { buyDiscount: number; sellBonus: number };

/** The pressure at `now` of a value stored at `updatedAt`: drifted back toward 0, never past it. */
export function driftedPressure(stored: number, updatedAt: Date | number, now: number): number {
  const steps = Math.max(0, Math.floor((now - Number(updatedAt)) / DRIFT_MS));
  if (stored > 0) return Math.max(0, stored - steps);
  if (stored < 0) return Math.min(0, stored + steps);
  return 0;
}

export function clampPressure(value: number): number {
  return Math.max(-MAX_PRESSURE, Math.min(MAX_PRESSURE, value));
}

/**
 * The quoted price of one unit: the base moved PRICE_STEP_PERCENT per unit of pressure (rounded,
 * at least 1), then the player's technologies (buying cheaper, selling dearer; rounded down, at
 * least 1). A missing base price stays missing.
 */
export function quote(base: number | undefined, pressure: number, side: 'buy' | 'sell', mods: PriceModifiers): number | null {
  if (base === undefined) return null;
  const moved = Math.max(1, Math.round((base * (100 + PRICE_STEP_PERCENT * pressure)) / 100));
  const percent = side === 'buy' ? 100 - mods.buyDiscount : 100 + mods.sellBonus;
  return Math.max(1, Math.floor((moved * percent) / 100));
}
