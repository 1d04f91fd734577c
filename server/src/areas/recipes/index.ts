import { defineServerArea } from '../area.ts';
import { recipesHttp } from './recipes.http.ts';
import { recipesMigrations } from './recipes.migrations.ts';
import { recipesRouter } from './recipes.router.ts';

export const recipesArea = defineServerArea({ router: recipesRouter, migrations: recipesMigrations, http: recipesHttp });
