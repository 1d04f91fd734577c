import { defineArea } from '../area.ts';
import { settingsPages } from './settings.pages.ts';

export const settingsRoutes = /* @__PURE__ */ defineArea({
  procedures: {
    'settings.colors': 'public',
    'settings.saveColors': 1,
    'settings.navbarStyle': 'public',
    'settings.saveNavbarStyle': 1,
    'settings.splash': 1,
    'settings.dismissSplash': 1,
  },
  pages: settingsPages,
  http: {
    // The web app manifest, in the owner's colours (an installed app looks the same for everyone).
    'GET /manifest.webmanifest': { access: 'public' },
  },
  api: {
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
  },
});
