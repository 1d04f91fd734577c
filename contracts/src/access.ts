/** Messages of the access gate, shared so clients and tests can tell a refusal from a business error. */
export const accessMessages = {
  signInRequired: 'You need to log in to do this',
  levelTooLow: 'Your account level does not allow this',
  crossSite: 'Request refused: it came from another site',
  formContentType: 'Request refused: send JSON (application/json)',
  internal: 'Something went wrong on the server. Please try again later.',
} as const;
