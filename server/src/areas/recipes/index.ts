import { defineServerArea } from '../area.ts';
import { recipesRouter } from './recipes.router.ts';

export const recipesArea = defineServerArea({ router: recipesRouter });
