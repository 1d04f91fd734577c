import type { ProcedurePath } from './permissions.ts';

/**
 * The documented /api/* paths, each mapped onto one procedure. The server's compatibility plugin is
 * driven entirely by this table: it renames fields in and out and converts their wire types, nothing
 * else. Every rule lives in the procedure.
 *
 * `input`: procedure input field <- legacy payload field. Payload fields not named here are ignored.
 *   Without `input` the procedure is called with no input.
 * `output`: legacy response field <- procedure output field. Applied to each element when the
 *   procedure returns an array. Without `output` the procedure's result is sent as it is.
 * Conversions: `int` accepts a number or a string of digits, `boolean` accepts true/false or
 * 'true'/'false', `text` writes a value as a string (booleans become 'true'/'false').
 * Anything that does not convert is passed on unchanged, so the procedure's validation answers it.
 */
export type Conversion = 'int' | 'boolean' | 'text';
export type FieldSource = string | { field: string; as: Conversion };
export type FieldMap = Readonly<Record<string, FieldSource>>;
export type LegacyRoute = { procedure: ProcedurePath; input?: FieldMap; output?: FieldMap };

const statusOut = { user: 'user', authenticated: 'level', authentication: 'level' } as const;

export const legacyApi = {
  '/api/signup_attempt': {
    procedure: 'auth.signup',
    input: { name: 'signupName', password: 'signupPass', confirmPassword: 'signupConfPass' },
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

  '/api/admin/users': { procedure: 'admin.users', output: { name: 'name', authentication: 'level' } },
  '/api/admin/set_user_auth': {
    procedure: 'admin.setLevel',
    input: { name: 'username', level: { field: 'authlevel', as: 'int' } },
    output: { name: 'name', authentication: 'level' },
  },

  '/api/user_settings/get_colors': { procedure: 'settings.colors' },
  '/api/user_settings/set_colors': {
    procedure: 'settings.saveColors',
    input: {
      menuColor: 'menu',
      backgroundColor: 'background',
      accentColor: 'accent',
      foregroundColor: 'foreground',
      linkColor: 'link',
      errorColor: 'error',
      menuColor2: 'secondaryMenu',
    },
  },
  '/api/user_settings/get_navbar_style': {
    procedure: 'settings.navbarStyle',
    output: { clickToToggle: { field: 'clickToToggle', as: 'text' } },
  },
  '/api/user_settings/set_navbar_style': {
    procedure: 'settings.saveNavbarStyle',
    input: { clickToToggle: { field: 'clickToToggle', as: 'boolean' } },
    output: { clickToToggle: { field: 'clickToToggle', as: 'text' } },
  },
  '/api/user_settings/get_should_display_splash_page_popup': {
    procedure: 'settings.splash',
    output: { display: { field: 'display', as: 'text' } },
  },
  '/api/user_settings/never_again_display_splash_page_popup': {
    procedure: 'settings.dismissSplash',
    output: { display: { field: 'display', as: 'text' } },
  },
} as const satisfies Record<string, LegacyRoute>;

export type LegacyPath = keyof typeof legacyApi;

/** The error body of every /api path. */
export type LegacyErrorBody = { message: string; preauth?: boolean };
