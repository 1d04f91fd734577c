import { z } from 'zod';
import { text } from '../text.ts';

export const NAME_MAX = 64;
export const PASSWORD_MAX = 256;
/** OWASP ASVS 2.1.1: at least 8 characters. Checked by the server after the spec's checks. */
export const PASSWORD_MIN = 8;

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
  signupThrottled: 'Too many accounts created from this address. Try again later.',
  oneLoginPerBatch: 'A batch may carry at most one auth.login or auth.signup call',
  setupCodeNeeded:
    'This first account will own the site. Create it on the server machine itself, or enter the setup code the server printed in its log when it started (`npm run user -- setup-code` on the server prints it again).',
  setupCodeWrong: 'That setup code is not right. Copy it from the server\'s log, or run `npm run user -- setup-code` on the server.',
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
