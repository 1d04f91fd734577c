/** What other areas may use of the accounts area: admin makes a member's password reset link through it. */
export { createResetLink } from './reset-links.ts';
