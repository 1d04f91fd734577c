import { z } from 'zod';
import { NAMED_ISSUE, text } from '../text.ts';

export const KEY_LENGTH = 29;
const GROUP = 5;
/** How an Active key is shown: five groups of five asterisks. */
export const MASKED_KEY = Array.from({ length: 5 }, () => '*'.repeat(GROUP)).join('-');

export const WINDOWS_KEY_STATUSES = ['Active', 'Inactive', 'Unused'] as const;
export type WindowsKeyStatus = (typeof WINDOWS_KEY_STATUSES)[number];
export const LOCATION_MAX = 100;

export const windowsKeyMessages = {
  keyIncomplete: 'Key incomplete',
  statusMissing: 'Status must be specified',
  locationMissing: 'Location must be specified unless status is Unused',
  duplicate: 'That key is already registered',
  notFound: 'That key is not registered',
  releaseNotActive: 'Only an Active key can be released',
  claimNotFree: 'Only an Inactive or Unused key can be claimed',
  releaseConfirm: 'Release this key? It becomes Inactive.',
  claimPrompt: "Where is this key going? (type 'Unused' to mark it unused)",
} as const;

/**
 * The key input's rule, shared by the page and the server: drop everything but letters and digits,
 * upper-case, a dash after every five, at most 29 characters (five groups of five).
 */
export function formatKey(raw: string): string {
  const chars = raw.replace(/[^A-Za-z0-9]/g, '').toUpperCase().slice(0, GROUP * 5);
  const groups = chars.match(/.{1,5}/g) ?? [];
  return groups.join('-').slice(0, KEY_LENGTH);
}

export const isCompleteKey = (key: string) => formatKey(key).length === KEY_LENGTH;

const isStatus = (value: string): value is WindowsKeyStatus => (WINDOWS_KEY_STATUSES as readonly string[]).includes(value);

export type KeyRegistration = { key: string; status: string; location: string };

/** The Register Key form's errors in the order the page shows them; empty means it may be sent. */
export function registrationErrors(form: KeyRegistration): string[] {
  const errors: string[] = [];
  if (!isCompleteKey(form.key)) errors.push(windowsKeyMessages.keyIncomplete);
  if (!isStatus(form.status)) errors.push(windowsKeyMessages.statusMissing);
  if (form.location.trim() === '' && form.status !== 'Unused') errors.push(windowsKeyMessages.locationMissing);
  return errors;
}

/**
 * What a claim's answer means: blank (or a cancelled prompt) does nothing, 'Unused' in any case marks
 * the key Unused with no location, anything else makes it Active there.
 */
export function claimChange(answer: string | null): { status: WindowsKeyStatus; location: string } | null {
  const location = (answer ?? '').trim();
  if (location === '') return null;
  if (location.toLowerCase() === 'unused') return { status: 'Unused', location: '' };
  return { status: 'Active', location };
}

export type WindowsKey = {
  key: string;
  status: WindowsKeyStatus;
  location: string;
  /** Who last registered, claimed or released it, and when (ISO 8601). */
  changedBy: string | null;
  changedAt: string;
};

const keyText = text({ label: 'Key', max: 64 });
const statusText = text({ label: 'Status', max: 20, trim: true });
const locationText = text({ label: 'Location', max: LOCATION_MAX, trim: true });

const named = (message: string) => ({ code: 'custom' as const, message, params: NAMED_ISSUE });

/** Register: the form's rules with its messages, then the key formatted and an Unused key's location emptied. */
export const addWindowsKeyInput = z
  .object({ key: keyText.optional().default(''), status: statusText.optional().default(''), location: locationText.optional().default('') })
  .superRefine((form, ctx) => {
    const first = registrationErrors(form)[0];
    if (first) ctx.addIssue(named(first));
  })
  .transform((form) => ({
    key: formatKey(form.key),
    status: form.status as WindowsKeyStatus,
    location: form.status === 'Unused' ? '' : form.location,
  }));
export type AddWindowsKeyInput = z.output<typeof addWindowsKeyInput>;

/**
 * Release (status Inactive) or claim (status Active with a location; 'Unused' as the location, or
 * status Unused, marks it Unused). The transition itself is checked against the stored key.
 */
export const updateWindowsKeyInput = z
  .object({ key: keyText.optional().default(''), status: statusText.optional().default(''), location: locationText.optional().default('') })
  .superRefine((form, ctx) => {
    if (!isCompleteKey(form.key)) return ctx.addIssue(named(windowsKeyMessages.keyIncomplete));
    if (!isStatus(form.status)) return ctx.addIssue(named(windowsKeyMessages.statusMissing));
    if (form.status === 'Active' && form.location === '') ctx.addIssue(named(windowsKeyMessages.locationMissing));
  })
  .transform((form) => {
    const key = formatKey(form.key);
    if (form.status === 'Inactive') return { key, status: 'Inactive' as const, location: form.location };
    if (form.status === 'Unused') return { key, status: 'Unused' as const, location: '' };
    return { key, ...(claimChange(form.location) ?? { status: 'Active' as const, location: form.location }) };
  });
export type UpdateWindowsKeyInput = z.output<typeof updateWindowsKeyInput>;

/** Reading the key the firmware (ACPI MSDM table) carries, for the copy buttons. */
export const FIRMWARE_KEY_COMMANDS = {
  linux: 'sudo tail -c 29 /sys/firmware/acpi/tables/MSDM; echo',
  windows: 'powershell "(Get-CimInstance -ClassName SoftwareLicensingService).OA3xOriginalProductKey"',
} as const;
