import { defineArea } from '../area.ts';
import { authPages } from './auth.pages.ts';

const statusOut = { user: 'user', authenticated: 'level', authentication: 'level' } as const;

/** The member's own account changes: a signed-in browser only, never a personal API token. */
const browser = { access: 0, browser: true } as const;

export const authRoutes = /* @__PURE__ */ defineArea({
  procedures: {
    'auth.status': 'public',
    'auth.signup': 'public',
    'auth.login': 'public',
    'auth.logout': 'public',
    'auth.changePassword': browser,
    'auth.devices': 0,
    'auth.signOutDevice': browser,
    'auth.signOutOthers': browser,
    'auth.tokens': 0,
    'auth.createToken': browser,
    'auth.revokeToken': browser,
    'auth.passkeys': 0,
    'auth.passkeyRegistrationOptions': browser,
    'auth.addPasskey': browser,
    'auth.renamePasskey': browser,
    'auth.removePasskey': browser,
    'auth.confirmPassword': browser,
    'auth.confirmPasskey': browser,
    'auth.passkeyLoginOptions': 'public',
    'auth.passkeyLogin': 'public',
    'auth.resetStatus': 'public',
    'auth.resetPassword': 'public',
  },
  pages: authPages,
  api: {
    '/api/signup_attempt': {
      procedure: 'auth.signup',
      input: { name: 'signupName', password: 'signupPass', confirmPassword: 'signupConfPass', setupCode: 'setupCode' },
      output: statusOut,
    },
    '/api/login_attempt': {
      procedure: 'auth.login',
      input: { name: 'loginName', password: 'loginPass' },
      output: statusOut,
    },
    '/api/login_status': { procedure: 'auth.status', output: statusOut },
    '/api/logout': { procedure: 'auth.logout' },
    /** The old site's logout path; GET /logout is the client's page, which calls auth.logout. */
    '/logout': { procedure: 'auth.logout' },
  },
});
