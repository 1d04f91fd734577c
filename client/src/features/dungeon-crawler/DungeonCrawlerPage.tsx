import { notBuiltPage } from '../../app/NotBuiltPage.tsx';

/**
 * Route slot for /personal/dungeon-crawler (see routes.ts). The tower game's page replaces this
 * file; until then the route says honestly that the game is not built yet.
 */
export default notBuiltPage('Microsoft Tower');
