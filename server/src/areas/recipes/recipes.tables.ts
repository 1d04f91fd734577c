import type { Generated, Selectable } from 'kysely';

export interface RecipesTable {
  id: Generated<number>;
  title: string;
  author: string;
  foreword: string;
  servings: number | null;
  /** The top of a yield range ('8-10 servings'). */
  servings_max: number | null;
  prep_minutes: number | null;
  cook_minutes: number | null;
  total_minutes: number | null;
  /** The day the recipe was added (YYYY-MM-DD), shown in the list. */
  uploaded_date: Generated<string>;
  created_by: number | null;
  updated_at: Generated<Date>;
  /** The page's link when the recipe was imported from one (without its #fragment); else null. */
  source_url: string | null;
}

export interface RecipeStepsTable {
  id: Generated<number>;
  recipe_id: number;
  /** 1, 2, 3...: the step number. */
  position: number;
  /** A heading shown before this step ('' for none). */
  section: Generated<string>;
  instructions: string;
}

export interface RecipeIngredientsTable {
  id: Generated<number>;
  step_id: number;
  position: number;
  name: string;
  plural_name: string;
  quantity: number | null;
  quantity_max: number | null;
  note: Generated<string>;
  unit_abbreviation: string | null;
  image: string | null;
}

export interface RecipeUnitsTable {
  abbreviation: string;
  name: string;
  plural_name: string;
  /** In the dimension's base unit: ml for volume, g for mass, 1 for counts. */
  size: number;
  dimension: 'volume' | 'mass' | 'count';
  system: 'metric' | 'us' | 'any';
}

export interface RecipeSettingsTable {
  user_id: number;
  default_view: string;
  ingredient_view: string;
  measurement_system: string;
  improper_fractions: boolean;
  decimals: boolean;
}

export interface RecipesTables {
  recipes: RecipesTable;
  recipe_steps: RecipeStepsTable;
  recipe_ingredients: RecipeIngredientsTable;
  recipe_units: RecipeUnitsTable;
  recipe_settings: RecipeSettingsTable;
}

export type RecipeRecord = Selectable<RecipesTable>;
export type RecipeSettingsRecord = Selectable<RecipeSettingsTable>;
