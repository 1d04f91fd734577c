import { defineArea } from '../area.ts';

const statusOut = { user: 'user', authenticated: 'level', authentication: 'level' } as const;

export const authRoutes = defineArea({
  procedures: {
    'auth.status': 'public',
    'auth.signup': 'public',
    'auth.login': 'public',
    'auth.logout': 'public',
    'auth.changePassword': 0,
    'auth.devices': 0,
    'auth.signOutDevice': 0,
    'auth.signOutOthers': 0,
    'auth.tokens': 0,
    'auth.createToken': 0,
    'auth.revokeToken': 0,
    'auth.passkeys': 0,
    'auth.passkeyRegistrationOptions': 0,
    'auth.addPasskey': 0,
    'auth.renamePasskey': 0,
    'auth.removePasskey': 0,
    'auth.passkeyLoginOptions': 'public',
    'auth.passkeyLogin': 'public',
    'auth.resetStatus': 'public',
    'auth.resetPassword': 'public',
  },
  pages: {
    '/login': { access: 'public', label: 'Login' },
    '/logout': { access: 'public', label: 'Logout' },
    '/preauth': { access: 0, label: 'Pending account', ungated: true },
    '/personal/account': { access: 0, label: 'Account' },
    '/reset-password': { access: 'public', label: 'Reset password' },
  },
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
