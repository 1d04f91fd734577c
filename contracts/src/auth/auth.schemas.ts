import { z } from 'zod';
import { rowId } from '../row-id.ts';
import { text } from '../text.ts';
import { isTokenScope, scopeMessages } from '../scopes.ts';
import { NAME_MAX, PASSWORD_MAX, SETUP_CODE_MAX } from './auth.rules.ts';

/** Names and passwords are capped and refuse control characters here; the spec's checks run after. */
const nameField = text({ label: 'Username', max: NAME_MAX * 4 });
const passwordField = text({ label: 'Password', max: PASSWORD_MAX });

export const signupInput = z.object({
  name: nameField,
  password: passwordField,
  confirmPassword: passwordField,
  /** The one-time code for the first account when it is not created from the server machine itself. */
  setupCode: text({ label: 'Setup code', max: SETUP_CODE_MAX, trim: true }).optional(),
});
export type SignupInput = z.infer<typeof signupInput>;

export const loginInput = z.object({ name: nameField, password: passwordField });
export type LoginInput = z.infer<typeof loginInput>;

/** `user` is null and `level` 0 when nobody is signed in. */
export const statusOutput = z.object({ user: z.string().nullable(), level: z.number().int() });
export type Status = z.infer<typeof statusOutput>;

export const changePasswordInput = z.object({
  currentPassword: text({ label: 'Current password', max: PASSWORD_MAX }),
  newPassword: text({ label: 'New password', max: PASSWORD_MAX }),
  confirmPassword: text({ label: 'Confirm new password', max: PASSWORD_MAX }),
  /** "Also remove my passkeys and tokens", on unless the member unticks it. */
  removeKeys: z.boolean().default(true),
});
export type ChangePasswordInput = z.infer<typeof changePasswordInput>;

/** A signed-in browser on the account page: `id` names it for "Sign out" (not its token, nor its hash). */
export const deviceRow = z.object({
  id: z.string(),
  browser: z.string(),
  address: z.string(),
  signedInAt: z.string(),
  lastUsedAt: z.string(),
  current: z.boolean(),
});
export type DeviceRow = z.infer<typeof deviceRow>;

export const deviceIdInput = z.object({ id: text({ label: 'Device', max: 64, trim: true, min: 1 }) });

const resetToken = text({ label: 'Reset link', max: 128, trim: true });
export const resetTokenInput = z.object({ token: resetToken });
export const resetPasswordInput = z.object({
  token: resetToken,
  newPassword: text({ label: 'New password', max: PASSWORD_MAX }),
  confirmPassword: text({ label: 'Confirm new password', max: PASSWORD_MAX }),
});
export type ResetPasswordInput = z.infer<typeof resetPasswordInput>;
export const resetStatusOutput = z.object({ state: z.enum(['valid', 'used', 'expired', 'replaced', 'unknown']), name: z.string().nullable() });
export type ResetStatus = z.infer<typeof resetStatusOutput>;

/** A personal API token as the account page lists it (the token itself is shown once, at creation). */
export const apiTokenRow = z.object({
  id: z.number().int(),
  label: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** null: every right of the member (contracts/src/scopes.ts). */
  scopes: z.array(z.string()).nullable(),
});
export type ApiTokenRow = z.infer<typeof apiTokenRow>;
export const TOKEN_LABEL_MAX = 80;
/** A token's scopes (contracts/src/scopes.ts): absent or null for every right of the member. */
export const tokenScopesInput = z
  .array(z.string().max(64).refine(isTokenScope, { message: scopeMessages.unknown }))
  .min(1, { message: scopeMessages.none })
  .max(200)
  .refine((scopes) => new Set(scopes).size === scopes.length, { message: scopeMessages.duplicate });
export const createTokenInput = z.object({
  label: text({ label: 'Label', max: TOKEN_LABEL_MAX, trim: true, min: 1 }),
  scopes: tokenScopesInput.nullable().optional(),
});
export const tokenIdInput = z.object({ id: rowId('Name the token by its id') });

/** A passkey as the account page lists it (the public key and counter stay on the server). */
export const passkeyRow = z.object({ id: z.number().int(), name: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable() });
export type PasskeyRow = z.infer<typeof passkeyRow>;
export const PASSKEY_NAME_MAX = 80;
/** How long a passkey ceremony's challenge may be answered. */
export const PASSKEY_CHALLENGE_MINUTES = 5;
const passkeyName = text({ label: 'Passkey name', max: PASSKEY_NAME_MAX, trim: true, min: 1 });
const b64url = z.string().max(16384).regex(/^[A-Za-z0-9_-]*$/, 'Not base64url');
/**
 * What the browser's WebAuthn ceremony answers (@simplewebauthn/browser's RegistrationResponseJSON or
 * AuthenticationResponseJSON): ids and byte fields in base64url, checked in full by the server's library.
 */
const credentialResponse = z.object({
  id: b64url,
  rawId: b64url,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url,
    attestationObject: b64url.optional(),
    authenticatorData: b64url.optional(),
    signature: b64url.optional(),
    userHandle: b64url.nullable().optional(),
    transports: z.array(z.string().max(32)).max(16).optional(),
  }),
  /** Extension outputs are not used here: whatever the browser sends is dropped. */
  clientExtensionResults: z.unknown().transform(() => ({})),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
});
export const addPasskeyInput = z.object({ name: passkeyName, response: credentialResponse });
export const passkeyLoginInput = z.object({ response: credentialResponse });
/** Confirms a session before adding a passkey or a token (REAUTH_MINUTES): the password again, or a passkey's answer. */
export const confirmPasswordInput = z.object({ password: passwordField });
export const confirmPasskeyInput = passkeyLoginInput;
export const passkeyIdInput = z.object({ id: rowId('Name the passkey by its id') });
export const renamePasskeyInput = z.object({ id: passkeyIdInput.shape.id, name: passkeyName });
