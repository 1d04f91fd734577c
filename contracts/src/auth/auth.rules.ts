import { textMessages } from '../text-messages.ts';

/*
 * The accounts' limits, messages and form checks: plain values without zod, so the login, reset and
 * account pages load them without the schemas (auth.schemas.ts).
 */

export const NAME_MAX = 64;
export const PASSWORD_MAX = 256;
/** OWASP ASVS 2.1.1: at least 8 characters. Checked by the server after the spec's checks. */
export const PASSWORD_MIN = 8;

/**
 * Adding a passkey or an API token needs a sign-in (or a confirmation with the password or a passkey)
 * this recent. Ten minutes covers signing in and then adding a passkey or a token at once (a passkey
 * ceremony itself has 5), while a cookie left on a borrowed computer, or taken from one, is almost
 * always used later than that: it then cannot add a way in of its own that outlives the session.
 */
export const REAUTH_MINUTES = 10;
/** Passkeys one account may hold (a phone, a laptop and a few security keys fit easily). */
export const PASSKEYS_MAX = 20;

export const authMessages = {
  nameEmpty: 'Username may not be empty',
  passwordsDiffer: 'Password and Confirm Password do not match',
  passwordEmpty: 'Password may not be empty',
  nameTooLong: `Username may be at most ${NAME_MAX} characters`,
  passwordTooLong: `Password may be at most ${PASSWORD_MAX} characters`,
  nameTaken: 'That username is already taken',
  badCredentials: 'Incorrect username or password',
  pending: 'Your account is created but must be manually authenticated. Contact the site owner.',
  throttled: 'Too many failed login attempts. Wait 15 minutes and try again.',
  passwordTooShort: `Password must be at least ${PASSWORD_MIN} characters`,
  passwordTooCommon: 'That password is one of the most common ones; choose another',
  passwordIsName: 'Password may not be the username',
  nameInvisible: 'Username may not contain invisible or direction-changing characters',
  nameLookalike: textMessages.lookalike('Username'),
  signupThrottled: 'Too many accounts created from this address. Try again later.',
  oneLoginPerBatch: 'A batch may carry at most one auth.login or auth.signup call',
  setupCodeNeeded:
    'This first account will own the site. Create it on the server machine itself, or enter the setup code the server printed in its log when it started (`npm run user -- setup-code` on the server prints it again).',
  setupCodeWrong: 'That setup code is not right. Copy it from the server\'s log, or run `npm run user -- setup-code` on the server.',
  currentPasswordWrong: 'The current password is not right',
  newPasswordsDiffer: 'New password and Confirm new password do not match',
  passwordChanged: 'Password changed. Every other device is signed out.',
  passwordChangedAndKeys: 'Password changed. Every other device is signed out, and your passkeys and API tokens are removed.',
  passwordUnchanged: 'The new password is the same as the current one; choose another',
  confirmNeeded: `To add a passkey or a token, confirm it is you: enter your password again (you signed in more than ${REAUTH_MINUTES} minutes ago).`,
  confirmed: 'Confirmed. You can add a passkey or a token now.',
  unknownDevice: 'That device is signed out already',
  unknownToken: 'That token is revoked already',
  resetUsed: 'This reset link has been used already. Ask an admin for a new one.',
  resetExpired: 'This reset link has expired (links last 24 hours). Ask an admin for a new one.',
  resetUnknown: 'This reset link is not valid. Copy the whole link, or ask an admin for a new one.',
  resetReplaced: 'This reset link was replaced by a newer one. Use the newest link you were sent, or ask an admin for a new one.',
  resetDone: 'Your password is set: every device that was signed in is signed out, and the account\'s passkeys and API tokens are removed. Log in with the new password.',
  /** The reset page, before the new password is sent. */
  resetWillEnd: 'Setting it signs out every device signed in to the account, and removes its passkeys and API tokens.',
  passkeyFailed: 'That passkey could not be checked. Try again, or sign in with your password.',
  passkeyUnknown: 'That passkey is not known here (it may have been removed). Sign in with your password.',
  passkeyChallengeGone: 'The passkey request has expired or was used already. Try again.',
  unknownPasskey: 'That passkey is removed already',
  passkeyLimit: `An account may have at most ${PASSKEYS_MAX} passkeys. Remove one first.`,
  passkeyRequestsThrottled: 'Too many passkey requests from this address. Wait a few minutes and try again.',
  passkeyUnavailable: 'Passkeys need the site\'s own address: open it by its name (or set PUBLIC_URL)',
} as const;

/** Shown (and sent) only when the server answers setupCodeNeeded or setupCodeWrong. */
export const SETUP_CODE_MAX = 64;

/**
 * The sign-up checks, in the spec's order. The client runs the same function before sending,
 * and the server runs it again, so the first failing message is the same on both sides.
 */
export function signupProblem(input: { name: string; password: string; confirmPassword: string }): string | null {
  if (input.name.trim() === '') return authMessages.nameEmpty;
  if (input.password !== input.confirmPassword) return authMessages.passwordsDiffer;
  if (input.password === '') return authMessages.passwordEmpty;
  if (input.name.length > NAME_MAX) return authMessages.nameTooLong;
  if (input.password.length > PASSWORD_MAX) return authMessages.passwordTooLong;
  return null;
}

/** The change-password form's checks: the new-password ones, and a new password that differs from the current one. */
export function changePasswordProblem(input: { currentPassword: string; newPassword: string; confirmPassword: string }): string | null {
  return newPasswordProblem(input) ?? (input.newPassword === input.currentPassword ? authMessages.passwordUnchanged : null);
}

/** The new-password checks every form runs before sending (change password, reset link); the server runs them again. */
export function newPasswordProblem(input: { newPassword: string; confirmPassword: string }): string | null {
  if (input.newPassword !== input.confirmPassword) return authMessages.newPasswordsDiffer;
  if (input.newPassword === '') return authMessages.passwordEmpty;
  if (input.newPassword.length > PASSWORD_MAX) return authMessages.passwordTooLong;
  return null;
}

/** How long a reset link made by an admin works. */
export const RESET_LINK_HOURS = 24;
/** The reset page; the link's token follows after '#', so it never reaches a server log or a Referer. */
export const RESET_PAGE = '/reset-password';
