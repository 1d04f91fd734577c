/** Where the frame points: the mirror's own index page, served by the server under /api. */
export const FIVETOOLS_URL = '/api/5etools/index.html';
export const FIVETOOLS_INSTALL_COMMAND = 'npm run 5etools -- install PATH';

export type FivetoolsStatus = { installed: boolean; url: string; command: string };
