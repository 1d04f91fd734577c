import { useLive } from '../lib/live.ts';

/**
 * Keeps the admins' waiting count live. Rendered for admins only (the feed is not opened for others),
 * and loaded lazily: the live feed's code stays out of the shell every visitor loads.
 */
export default function LiveAccounts() {
  useLive(['accounts']);
  return null;
}
