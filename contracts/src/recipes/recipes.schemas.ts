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
  ingredientNote: 1000,
  section: 200,
  unit: 20,
  steps: 100,
  ingredientsPerStep: 100,
  servings: 1000,
  minutes: 60 * 24 * 30,
  quantity: 1_000_000,
  /** A JSON-LD file or a saved recipe page (pages with their inline scripts run to a few MB). */
  importBytes: 5_000_000,
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

const amount = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .min(0, { error: `${label} may not be negative` })
    .max(RECIPE_LIMITS.quantity, { error: `${label} may be at most ${RECIPE_LIMITS.quantity}` })
    .nullable()
    .default(null);

const wholeCount = (label: string, max: number) =>
  z
    .number({ error: `${label} must be a number` })
    .int({ error: `${label} must be a whole number` })
    .min(1, { error: `${label} must be at least 1` })
    .max(max, { error: `${label} may be at most ${max}` })
    .nullable()
    .default(null);

export const ingredientInput = z.object({
  name: text({ label: 'Ingredient name', max: RECIPE_LIMITS.ingredientName, trim: true, min: 1 }),
  plural_name: text({ label: 'Plural name', max: RECIPE_LIMITS.ingredientName, trim: true }).default(''),
  quantity: amount('Quantity'),
  /** The top of a range ('2-3 cups', '4 or 5 sprigs'): null for a single amount. */
  quantity_max: amount('Quantity range end'),
  /** What follows the name when a line is longer than a name may be, or a cook's remark. */
  note: text({ label: 'Ingredient note', max: RECIPE_LIMITS.ingredientNote, trim: true }).default(''),
  unit_abbreviation: text({ label: 'Unit', max: RECIPE_LIMITS.unit, trim: true }).nullable().default(null),
  image: imageName.nullable().default(null),
});
export type IngredientInput = z.input<typeof ingredientInput>;

export const stepInput = z.object({
  /** A heading shown before this step (a HowToSection's name: 'For the sauce'); '' for none. */
  section: text({ label: 'Section', max: RECIPE_LIMITS.section, trim: true }).default(''),
  instructions: text({ label: 'Instructions', max: RECIPE_LIMITS.instructions, trim: true, min: 1, multiline: true }),
  ingredients: z.array(ingredientInput).max(RECIPE_LIMITS.ingredientsPerStep, { error: `A step may have at most ${RECIPE_LIMITS.ingredientsPerStep} ingredients` }).default([]),
});

export const recipeInput = z.object({
  title: text({ label: 'Title', max: RECIPE_LIMITS.title, trim: true, min: 1 }),
  author: text({ label: 'Author', max: RECIPE_LIMITS.author, trim: true }).default(''),
  foreword: text({ label: 'Foreword', max: RECIPE_LIMITS.foreword, trim: true, multiline: true }).default(''),
  servings: wholeCount('Servings', RECIPE_LIMITS.servings),
  /** The top of a yield range ('8-10 servings'); null for one number. */
  servings_max: wholeCount('Servings range end', RECIPE_LIMITS.servings),
  prep_minutes: wholeCount('Prep time', RECIPE_LIMITS.minutes),
  cook_minutes: wholeCount('Cook time', RECIPE_LIMITS.minutes),
  total_minutes: wholeCount('Total time', RECIPE_LIMITS.minutes),
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

export const importMessages = {
  empty: 'The file is empty',
  tooLarge: `The file is larger than the ${RECIPE_LIMITS.importBytes / 1_000_000} MB a recipe may be`,
  skipped: 'skipped: not a recipe file (.json, .jsonld or .html)',
  uploadTooLarge: (mb: number) => `The files are larger than the ${mb} MB one import takes: nothing was imported`,
} as const;

/**
 * A whole JSON-LD file or page, not a field anyone reads: any characters pass (real pages carry
 * zero-width spaces and stray control characters), the import keeps only what it reads, cleaned.
 */
export const importInput = z.object({
  json: z
    .string({ error: 'The file must be text' })
    .max(RECIPE_LIMITS.importBytes, { error: importMessages.tooLarge })
    .refine((v) => v.trim() !== '', { error: importMessages.empty }),
});

export const importUrlInput = z.object({
  url: text({ label: 'Link', max: 2000, trim: true, min: 1, emptyMessage: 'Paste the link of a recipe page' }),
  /** Import it again although a recipe was imported from this link before. */
  copy: z.boolean().optional(),
});

/** One file of a many-at-once import: what became of it. */
export type ImportReportEntry =
  | { file: string; ok: true; recipe_id: number; title: string }
  /** `skipped`: a file in a zip that is not a recipe file (README.txt, a picture), left out on purpose. */
  | { file: string; ok: false; message: string; skipped?: true };

/** Documented list item (spec section 3): recipe_id, title, author, uploaded_date (YYYY-MM-DD). */
export type RecipeListItem = { recipe_id: number; title: string; author: string; uploaded_date: string };

export type Ingredient = {
  name: string;
  plural_name: string;
  quantity: number | null;
  quantity_max: number | null;
  note: string;
  unit_abbreviation: string | null;
  image: string | null;
};
export type RecipeStep = { section: string; instructions: string; ingredients: Ingredient[] };

/** A recipe as /api/recipes/get documents it (steps keyed by step number), plus its id, author, date and servings. */
export type Recipe = {
  recipe_id: number;
  title: string;
  author: string;
  foreword: string;
  servings: number | null;
  servings_max: number | null;
  prep_minutes: number | null;
  cook_minutes: number | null;
  total_minutes: number | null;
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
  noFiles: 'Choose one or more JSON-LD files or a .zip of them',
  tooManyFiles: (n: number) => `At most ${n} files can be imported at once`,
  notZip: 'The .zip file could not be read: it is damaged or not a zip archive',
  link: {
    notUrl: 'That is not a link: paste the address of a recipe page, starting with https://',
    notHttp: 'Only http:// and https:// links can be imported',
    privateHost: 'That link points into a private or local network, which this server does not fetch from',
    unknownHost: 'That address could not be found: check the link',
  },
  pageStatus: (status: number) => `The page answered with HTTP ${status}: check the link`,
  pageTooLarge: (mb: number) => `The page is larger than the ${mb} MB this server reads`,
  pageTimeout: (seconds: number) => `The page did not answer within ${seconds} second${seconds === 1 ? '' : 's'}`,
  pageUnreachable: 'The page could not be reached: check the link or try again later',
  tooManyRedirects: 'The link redirects too many times',
  notHtml: 'That link is not a web page or a JSON-LD file',
  noRecipeOnPage: 'That page has no recipe this site can read (no schema.org Recipe in its JSON-LD)',
} as const;
