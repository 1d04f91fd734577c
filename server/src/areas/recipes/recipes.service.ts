import {
  DEFAULT_RECIPE_SETTINGS,
  recipeSettingsSchema,
  recipeToJsonLd,
  recipesMessages,
  type Recipe,
  type RecipeData,
  type RecipeListItem,
  type RecipeSettings,
  type RecipeStep,
  type Unit,
  type UnitDict,
} from '@site/contracts';
import type { AppDeps } from '../../deps.ts';
import type { Executor } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { Actor, SessionUser } from '../../identity/session-user.ts';
import type { RecipeSettingsRecord } from './recipes.tables.ts';
import * as repo from './recipes.repository.ts';

export async function list(deps: AppDeps, search?: string): Promise<RecipeListItem[]> {
  const rows = await repo.listRecipes(deps.db, search || undefined);
  return rows.map((r) => ({ recipe_id: r.id, title: r.title, author: r.author, uploaded_date: r.uploaded_date }));
}

async function load(db: Executor, id: number): Promise<Recipe> {
  const row = await repo.findRecipe(db, id);
  if (!row) throw new AppError('NOT_FOUND', recipesMessages.notFound);
  const steps = await repo.findSteps(db, id);
  const ingredients = await repo.findIngredients(
    db,
    steps.map((s) => s.id),
  );
  const byStep: Record<string, RecipeStep> = {};
  for (const step of steps) {
    byStep[String(step.position)] = {
      section: step.section,
      instructions: step.instructions,
      ingredients: ingredients
        .filter((i) => i.step_id === step.id)
        .map((i) => ({
          name: i.name,
          plural_name: i.plural_name,
          quantity: i.quantity,
          quantity_max: i.quantity_max,
          note: i.note,
          unit_abbreviation: i.unit_abbreviation,
          image: i.image,
        })),
    };
  }
  return {
    recipe_id: row.id,
    title: row.title,
    author: row.author,
    foreword: row.foreword,
    servings: row.servings,
    servings_max: row.servings_max,
    prep_minutes: row.prep_minutes,
    cook_minutes: row.cook_minutes,
    total_minutes: row.total_minutes,
    uploaded_date: row.uploaded_date,
    steps: byStep,
  };
}

export function get(deps: AppDeps, id: number): Promise<Recipe> {
  return load(deps.db, id);
}

export async function units(deps: AppDeps): Promise<UnitDict> {
  const dict: Record<string, Unit> = {};
  for (const row of await repo.listUnits(deps.db)) {
    dict[row.abbreviation] = { name: row.name, plural_name: row.plural_name, size: row.size, dimension: row.dimension, system: row.system };
  }
  return dict;
}

/** Units must be in the dictionary: the pages convert through it. */
async function checkUnits(db: Executor, data: RecipeData): Promise<void> {
  const known = new Set((await repo.listUnits(db)).map((u) => u.abbreviation));
  for (const step of data.steps) {
    for (const ingredient of step.ingredients) {
      const unit = ingredient.unit_abbreviation;
      if (unit && !known.has(unit)) throw new AppError('BAD_REQUEST', recipesMessages.unknownUnit(unit));
    }
  }
}

export async function create(deps: AppDeps, actor: Actor, data: RecipeData, source?: { url: string }): Promise<{ recipe_id: number }> {
  return deps.db.transaction().execute(async (trx) => {
    await checkUnits(trx, data);
    const { id } = await repo.insertRecipe(trx, data, actor.kind === 'user' ? actor.user.id : null);
    await repo.insertSteps(trx, id, data.steps);
    if (source) await repo.setSourceUrl(trx, id, source.url);
    return { recipe_id: id };
  });
}

/** Images no ingredient names any more are deleted by `forget` (the media storage), after the write. */
export type ImageCleanup = (files: string[]) => Promise<void>;

export async function update(deps: AppDeps, id: number, data: RecipeData, forget?: ImageCleanup): Promise<Recipe> {
  const { recipe, dropped } = await deps.db.transaction().execute(async (trx) => {
    await checkUnits(trx, data);
    const before = (await repo.imagesOfRecipe(trx, id)).map((r) => r.image as string);
    if (!(await repo.updateRecipeRow(trx, id, data))) throw new AppError('NOT_FOUND', recipesMessages.notFound);
    await repo.deleteSteps(trx, id);
    await repo.insertSteps(trx, id, data.steps);
    const used = await repo.imagesInUse(trx, before);
    return { recipe: await load(trx, id), dropped: before.filter((f) => !used.has(f)) };
  });
  if (forget && dropped.length > 0) await forget(dropped);
  return recipe;
}

export async function remove(deps: AppDeps, id: number, forget?: ImageCleanup): Promise<{ recipe_id: number }> {
  const dropped = await deps.db.transaction().execute(async (trx) => {
    const before = (await repo.imagesOfRecipe(trx, id)).map((r) => r.image as string);
    if (!(await repo.deleteRecipe(trx, id))) throw new AppError('NOT_FOUND', recipesMessages.notFound);
    const used = await repo.imagesInUse(trx, before);
    return before.filter((f) => !used.has(f));
  });
  if (forget && dropped.length > 0) await forget(dropped);
  return { recipe_id: id };
}

export async function exportJsonLd(deps: AppDeps, id: number): Promise<Record<string, unknown>> {
  return recipeToJsonLd(await load(deps.db, id));
}

const settingsOf = (row: RecipeSettingsRecord | undefined): RecipeSettings => {
  if (!row) return { ...DEFAULT_RECIPE_SETTINGS };
  // A value a later version no longer knows falls back to its default instead of failing the page.
  const parsed = recipeSettingsSchema.safeParse({
    defaultView: row.default_view,
    ingredientView: row.ingredient_view,
    measurementSystem: row.measurement_system,
    improperFractions: row.improper_fractions,
    decimals: row.decimals,
  });
  return parsed.success ? parsed.data : { ...DEFAULT_RECIPE_SETTINGS };
};

export async function settings(deps: AppDeps, user: SessionUser): Promise<RecipeSettings> {
  return settingsOf(await repo.findSettings(deps.db, user.id));
}

export async function saveSettings(deps: AppDeps, user: SessionUser, input: RecipeSettings): Promise<RecipeSettings> {
  const row = await repo.saveSettings(deps.db, {
    user_id: user.id,
    default_view: input.defaultView,
    ingredient_view: input.ingredientView,
    measurement_system: input.measurementSystem,
    improper_fractions: input.improperFractions,
    decimals: input.decimals,
  });
  return settingsOf(row);
}
