import { sql } from 'kysely';
import type { RecipeData } from '@site/contracts';
import type { Executor } from '../../db/database.ts';
import type { RecipeSettingsTable } from './recipes.tables.ts';

/** `%` and `_` typed in the search box are meant literally. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Newest first; with a search, recipes whose title or any ingredient's name contains it. */
export function listRecipes(db: Executor, search?: string) {
  let query = db.selectFrom('recipes').select(['id', 'title', 'author', 'uploaded_date']);
  if (search) {
    const pattern = likePattern(search);
    query = query.where((eb) =>
      eb.or([
        eb('title', 'ilike', pattern),
        eb.exists(
          eb
            .selectFrom('recipe_steps')
            .innerJoin('recipe_ingredients', 'recipe_ingredients.step_id', 'recipe_steps.id')
            .select(sql<number>`1`.as('one'))
            .whereRef('recipe_steps.recipe_id', '=', 'recipes.id')
            .where((inner) => inner.or([inner('recipe_ingredients.name', 'ilike', pattern), inner('recipe_ingredients.plural_name', 'ilike', pattern)])),
        ),
      ]),
    );
  }
  return query.orderBy('uploaded_date', 'desc').orderBy('id', 'desc').execute();
}

export function findRecipe(db: Executor, id: number) {
  return db.selectFrom('recipes').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findSteps(db: Executor, recipeId: number) {
  return db.selectFrom('recipe_steps').select(['id', 'position', 'section', 'instructions']).where('recipe_id', '=', recipeId).orderBy('position').execute();
}

export function findIngredients(db: Executor, stepIds: number[]) {
  if (stepIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('recipe_ingredients')
    .select(['step_id', 'name', 'plural_name', 'quantity', 'quantity_max', 'note', 'unit_abbreviation', 'image'])
    .where('step_id', 'in', stepIds)
    .orderBy('step_id')
    .orderBy('position')
    .execute();
}

/** The recipe row's columns a save writes. */
const recipeColumns = (data: RecipeData) => ({
  title: data.title,
  author: data.author,
  foreword: data.foreword,
  servings: data.servings,
  servings_max: data.servings !== null && data.servings_max !== null && data.servings_max > data.servings ? data.servings_max : null,
  prep_minutes: data.prep_minutes,
  cook_minutes: data.cook_minutes,
  total_minutes: data.total_minutes,
});

export function insertRecipe(db: Executor, data: RecipeData, createdBy: number | null, uploadedDate?: string) {
  return db
    .insertInto('recipes')
    .values({
      ...recipeColumns(data),
      created_by: createdBy,
      ...(uploadedDate ? { uploaded_date: uploadedDate } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export async function setSourceUrl(db: Executor, id: number, url: string): Promise<void> {
  await db.updateTable('recipes').set({ source_url: url }).where('id', '=', id).execute();
}

/** The first recipe imported from this link, if any. */
export function findBySourceUrl(db: Executor, url: string) {
  return db.selectFrom('recipes').select(['id', 'title']).where('source_url', '=', url).orderBy('id').executeTakeFirst();
}

export function updateRecipeRow(db: Executor, id: number, data: RecipeData) {
  return db
    .updateTable('recipes')
    .set({ ...recipeColumns(data), updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
}

/** Writes the steps and their ingredients of a recipe that has none (new, or just cleared). */
export async function insertSteps(db: Executor, recipeId: number, steps: RecipeData['steps']): Promise<void> {
  if (steps.length === 0) return;
  const rows = await db
    .insertInto('recipe_steps')
    .values(steps.map((step, i) => ({ recipe_id: recipeId, position: i + 1, section: step.section, instructions: step.instructions })))
    .returning(['id', 'position'])
    .execute();
  const ingredients = rows.flatMap((row) =>
    (steps[row.position - 1]?.ingredients ?? []).map((ingredient, i) => ({
      step_id: row.id,
      position: i + 1,
      name: ingredient.name,
      plural_name: ingredient.plural_name || ingredient.name,
      quantity: ingredient.quantity,
      quantity_max: ingredient.quantity !== null && ingredient.quantity_max !== null && ingredient.quantity_max > ingredient.quantity ? ingredient.quantity_max : null,
      note: ingredient.note,
      unit_abbreviation: ingredient.unit_abbreviation || null,
      image: ingredient.image || null,
    })),
  );
  if (ingredients.length > 0) await db.insertInto('recipe_ingredients').values(ingredients).execute();
}

export function deleteSteps(db: Executor, recipeId: number) {
  return db.deleteFrom('recipe_steps').where('recipe_id', '=', recipeId).execute();
}

export function deleteRecipe(db: Executor, id: number) {
  return db.deleteFrom('recipes').where('id', '=', id).returning('id').executeTakeFirst();
}

/** Every image file a recipe's ingredients name (to remove files no recipe uses any more). */
export async function imagesInUse(db: Executor, images: string[]): Promise<Set<string>> {
  if (images.length === 0) return new Set();
  const rows = await db.selectFrom('recipe_ingredients').select('image').distinct().where('image', 'in', images).execute();
  return new Set(rows.map((r) => r.image).filter((i): i is string => i !== null));
}

export function imagesOfRecipe(db: Executor, recipeId: number) {
  return db
    .selectFrom('recipe_ingredients')
    .innerJoin('recipe_steps', 'recipe_steps.id', 'recipe_ingredients.step_id')
    .select('recipe_ingredients.image')
    .where('recipe_steps.recipe_id', '=', recipeId)
    .where('recipe_ingredients.image', 'is not', null)
    .execute();
}

export function listUnits(db: Executor) {
  return db.selectFrom('recipe_units').selectAll().orderBy('dimension').orderBy('size').orderBy('abbreviation').execute();
}

export function findSettings(db: Executor, userId: number) {
  return db.selectFrom('recipe_settings').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export function saveSettings(db: Executor, row: RecipeSettingsTable) {
  const { user_id: _user, ...changes } = row;
  return db
    .insertInto('recipe_settings')
    .values(row)
    .onConflict((oc) => oc.column('user_id').doUpdateSet(changes))
    .returningAll()
    .executeTakeFirstOrThrow();
}
