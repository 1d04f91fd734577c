/** Messages of the access gate, shared so clients and tests can tell a refusal from a business error. */
export const accessMessages = {
  signInRequired: 'You need to log in to do this',
  levelTooLow: 'Your account level does not allow this',
  crossSite: 'Request refused: it came from another site',
  formContentType: 'Request refused: send JSON (application/json)',
  /** A change to an account (a `BrowserRule`) asked with a personal API token. */
  browserOnly: 'Only a browser signed in with the account can change it (an API token cannot)',
  internal: 'Something went wrong on the server. Please try again later.',
  /** A change the offline queue kept for one account, sent while another is signed in (header ACCOUNT_HEADER). */
  otherAccount: 'This change was made by another account; it is sent only while that account is signed in',
} as const;

/**
 * The header the offline queue sends with each waiting change: the account that made it (its name,
 * lower case, URI-encoded). The server refuses the call (412, accessMessages.otherAccount) unless the
 * session is that account's, so a change made by one person is never applied as another's.
 */
export const ACCOUNT_HEADER = 'x-site-account';
