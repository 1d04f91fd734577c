import { DEFAULT_RECIPE_SETTINGS, stepsInOrder, type Recipe, type RecipeSettings, type RecipeView, type UnitDict } from '@site/contracts/recipes';
import { allows, procedures } from '@site/contracts/permissions';
import { currentPort, viewerOf } from '../../lib/access.ts';
import { trpc } from '../../lib/trpc.ts';

export const RECIPES_HOME = '/personal/recipes';
export const viewHref = (view: RecipeView, id: number) => `${RECIPES_HOME}/${view}/${id}`;
export const imageHref = (file: string) => `/private/recipes/${encodeURIComponent(file)}`;

/** Whether the viewer may write recipes: admins; members who read them on port 8443 see no authoring buttons. */
export function useCanAuthor(): boolean {
  const status = trpc.auth.status.useQuery();
  return allows(procedures['recipes.create'], viewerOf(status.data), currentPort());
}

/** The member's saved settings (the defaults until they have answered). */
export function useRecipeSettings(): { settings: RecipeSettings; ready: boolean } {
  const query = trpc.recipes.settings.useQuery(undefined, { staleTime: 60_000 });
  return { settings: query.data ?? DEFAULT_RECIPE_SETTINGS, ready: !query.isPending };
}

export function useUnits(): UnitDict {
  return trpc.recipes.units.useQuery(undefined, { staleTime: Infinity }).data ?? {};
}

export type LoadedRecipe = { recipe: Recipe; steps: ReturnType<typeof stepsInOrder> };

/** One recipe by the id in the address; `error` says why it did not load. */
export function useRecipe(idText: string | undefined) {
  const id = Number(idText);
  const valid = Number.isInteger(id) && id > 0;
  const query = trpc.recipes.get.useQuery({ recipeId: id }, { enabled: valid, retry: false });
  const loaded: LoadedRecipe | undefined = query.data ? { recipe: query.data, steps: stepsInOrder(query.data) } : undefined;
  const error = !valid ? 'No recipe has that id' : query.error ? query.error.message : null;
  return { id, loaded, error, pending: valid && query.isPending };
}
