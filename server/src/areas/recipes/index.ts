import { defineServerArea } from '../area.ts';
import { recipesMigrations } from './recipes.migrations.ts';
import { recipesRouter } from './recipes.router.ts';

export const recipesArea = defineServerArea({ router: recipesRouter, migrations: recipesMigrations });
