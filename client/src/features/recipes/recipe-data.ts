import { DEFAULT_RECIPE_SETTINGS, stepsInOrder, type Recipe, type RecipeView, type UnitDict } from '@site/contracts/recipes';
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

/** The member's saved settings (the defaults until they have answered); `ready` once they have. */
export function useRecipeSettings() {
  const query = trpc.recipes.settings.useQuery(undefined, { staleTime: 60_000 });
  return { settings: query.data ?? DEFAULT_RECIPE_SETTINGS, ready: query.data !== undefined, query };
}

export function useUnits(): UnitDict {
  return trpc.recipes.units.useQuery(undefined, { staleTime: Infinity }).data ?? {};
}

export type LoadedRecipe = { recipe: Recipe; steps: ReturnType<typeof stepsInOrder> };

/**
 * One recipe by the id in the address. `error` is set only when there is no such recipe (a bad id,
 * or the server's NOT_FOUND); any other failure (a server error, no network) is the query's, for
 * `LoadProblem` to show with Retry: it does not mean the recipe is gone.
 */
export function useRecipe(idText: string | undefined) {
  const id = Number(idText);
  const valid = Number.isInteger(id) && id > 0;
  const query = trpc.recipes.get.useQuery({ recipeId: id }, { enabled: valid, retry: false });
  const loaded: LoadedRecipe | undefined = query.data ? { recipe: query.data, steps: stepsInOrder(query.data) } : undefined;
  const missing = query.error?.data?.code === 'NOT_FOUND' || query.error?.data?.code === 'BAD_REQUEST';
  const error = !valid ? 'No recipe has that id' : missing && query.error ? query.error.message : null;
  return { id, loaded, error, query, pending: valid && query.isPending };
}
