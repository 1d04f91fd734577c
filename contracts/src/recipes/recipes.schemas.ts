import { z } from 'zod';
import { rowId } from '../row-id.ts';
import { text } from '../text.ts';

export const RECIPE_VIEWS = ['page', 'steps', 'printer'] as const;
export type RecipeView = (typeof RECIPE_VIEWS)[number];
export const RECIPE_VIEW_LABELS: Record<RecipeView, string> = { page: 'Page', steps: 'Steps', printer: 'Printer Friendly' };

export const INGREDIENT_VIEWS = ['list-single', 'list-fit', 'tiles-2', 'tiles-3', 'tiles-4'] as const;
export type IngredientView = (typeof INGREDIENT_VIEWS)[number];
export const INGREDIENT_VIEW_LABELS: Record<IngredientView, string> = {
  'list-single': 'List, single column',
  'list-fit': 'List, fit screen',
  'tiles-2': 'Tiles, at least 2 per row',
  'tiles-3': 'Tiles, at least 3 per row',
  'tiles-4': 'Tiles, at least 4 per row',
};

export const MEASUREMENT_SYSTEMS = ['as-written', 'metric', 'american'] as const;
export const MEASUREMENT_SYSTEM_LABELS: Record<(typeof MEASUREMENT_SYSTEMS)[number], string> = {
  'as-written': 'As-written',
  metric: 'Metric',
  american: 'American',
};

const choice = <T extends readonly [string, ...string[]]>(values: T, label: string) =>
  z.enum(values, { error: `${label} must be one of: ${values.join(', ')}` });

export const recipeSettingsSchema = z.object({
  defaultView: choice(RECIPE_VIEWS, 'Default View'),
  ingredientView: choice(INGREDIENT_VIEWS, 'Ingredient View'),
  measurementSystem: choice(MEASUREMENT_SYSTEMS, 'Measurement System'),
  improperFractions: z.boolean({ error: 'Improper fractions must be true or false' }),
  decimals: z.boolean({ error: 'Decimals must be true or false' }),
});
export type RecipeSettings = z.infer<typeof recipeSettingsSchema>;

/** Spec section 9: default view 'page', ingredients as tiles, 3 per row. */
export const DEFAULT_RECIPE_SETTINGS: RecipeSettings = {
  defaultView: 'page',
  ingredientView: 'tiles-3',
  measurementSystem: 'as-written',
  improperFractions: false,
  decimals: false,
};

export const RECIPE_LIMITS = {
  title: 200,
  author: 200,
  foreword: 10_000,
  instructions: 10_000,
  ingredientName: 200,
  unit: 20,
  steps: 100,
  ingredientsPerStep: 100,
  servings: 1000,
  quantity: 1_000_000,
  importBytes: 1_000_000,
} as const;

const id = (label: string) =>
  rowId({
    notNumber: `${label} must be a number`,
    notWhole: `${label} must be a whole number`,
    notPositive: `${label} must be positive`,
    tooLarge: `${label} is too large`,
  });

export const recipeIdInput = z.object({ recipeId: id('Recipe id') });

/** Stored image file names are made by the server: letters, digits and dashes, one extension. */
export const IMAGE_FILE = /^[a-z0-9-]{8,80}\.(?:jpg|png|webp|gif|avif)$/;
const imageName = text({ label: 'Image', max: 100, trim: true }).refine((v) => v === '' || IMAGE_FILE.test(v), {
  message: 'Image must be a file uploaded to the recipes',
});

export const ingredientInput = z.object({
  name: text({ label: 'Ingredient name', max: RECIPE_LIMITS.ingredientName, trim: true, min: 1 }),
  plural_name: text({ label: 'Plural name', max: RECIPE_LIMITS.ingredientName, trim: true }).default(''),
  quantity: z
    .number({ error: 'Quantity must be a number' })
    .min(0, { error: 'Quantity may not be negative' })
    .max(RECIPE_LIMITS.quantity, { error: `Quantity may be at most ${RECIPE_LIMITS.quantity}` })
    .nullable()
    .default(null),
  unit_abbreviation: text({ label: 'Unit', max: RECIPE_LIMITS.unit, trim: true }).nullable().default(null),
  image: imageName.nullable().default(null),
});
export type IngredientInput = z.input<typeof ingredientInput>;

export const stepInput = z.object({
  instructions: text({ label: 'Instructions', max: RECIPE_LIMITS.instructions, trim: true, min: 1, multiline: true }),
  ingredients: z.array(ingredientInput).max(RECIPE_LIMITS.ingredientsPerStep, { error: `A step may have at most ${RECIPE_LIMITS.ingredientsPerStep} ingredients` }).default([]),
});

export const recipeInput = z.object({
  title: text({ label: 'Title', max: RECIPE_LIMITS.title, trim: true, min: 1 }),
  author: text({ label: 'Author', max: RECIPE_LIMITS.author, trim: true }).default(''),
  foreword: text({ label: 'Foreword', max: RECIPE_LIMITS.foreword, trim: true, multiline: true }).default(''),
  servings: z
    .number({ error: 'Servings must be a number' })
    .int({ error: 'Servings must be a whole number' })
    .min(1, { error: 'Servings must be at least 1' })
    .max(RECIPE_LIMITS.servings, { error: `Servings may be at most ${RECIPE_LIMITS.servings}` })
    .nullable()
    .default(null),
  steps: z
    .array(stepInput)
    .min(1, { error: 'A recipe needs at least one step' })
    .max(RECIPE_LIMITS.steps, { error: `A recipe may have at most ${RECIPE_LIMITS.steps} steps` }),
});
export type RecipeInput = z.input<typeof recipeInput>;
export type RecipeData = z.output<typeof recipeInput>;

export const updateRecipeInput = z.object({ recipeId: id('Recipe id'), recipe: recipeInput });

export const listInput = z
  .object({ search: text({ label: 'Search', max: 200, trim: true }).optional() })
  .optional();

export const importInput = z.object({
  json: text({ label: 'File', max: RECIPE_LIMITS.importBytes, multiline: true, min: 1, emptyMessage: 'The file is empty' }),
});

/** Documented list item (spec section 3): recipe_id, title, author, uploaded_date (YYYY-MM-DD). */
export type RecipeListItem = { recipe_id: number; title: string; author: string; uploaded_date: string };

export type Ingredient = { name: string; plural_name: string; quantity: number | null; unit_abbreviation: string | null; image: string | null };
export type RecipeStep = { instructions: string; ingredients: Ingredient[] };

/** A recipe as /api/recipes/get documents it (steps keyed by step number), plus its id, author, date and servings. */
export type Recipe = {
  recipe_id: number;
  title: string;
  author: string;
  foreword: string;
  servings: number | null;
  uploaded_date: string;
  steps: Record<string, RecipeStep>;
};

/** The steps in order (the record is keyed '1', '2', ...). */
export function stepsInOrder(recipe: Pick<Recipe, 'steps'>): RecipeStep[] {
  return Object.keys(recipe.steps)
    .sort((a, b) => Number(a) - Number(b))
    .map((key) => recipe.steps[key] as RecipeStep);
}

export const recipesMessages = {
  notFound: 'No recipe has that id',
  unknownUnit: (unit: string) => `Unknown unit "${unit}": use one of the unit dictionary's abbreviations`,
  imageNotFound: 'No such recipe image',
  imageType: 'Ingredient images must be JPEG, PNG, WebP, GIF or AVIF pictures',
  noImage: 'Choose an image to upload',
} as const;
