import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { TextInput } from '../../components/TextInput.tsx';
import { trpc } from '../../lib/trpc.ts';
import { RECIPES_HOME, useCanAuthor, useRecipeSettings, viewHref } from './recipe-data.ts';

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** Every recipe as 'title - author - uploaded date', opening in the member's default view. */
export function RecipeList() {
  const [search, setSearch] = useState('');
  const query = useDebounced(search.trim(), 250);
  const list = trpc.recipes.list.useQuery(query ? { search: query } : undefined, { placeholderData: (previous) => previous });
  const { settings } = useRecipeSettings();
  const canAuthor = useCanAuthor();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const fileInput = useRef<HTMLInputElement>(null);
  const [importError, setImportError] = useState<string | null>(null);
  const importRecipe = trpc.recipes.importJsonLd.useMutation({
    onSuccess: async ({ recipe_id }) => {
      await utils.recipes.list.invalidate();
      void navigate(viewHref('page', recipe_id));
    },
    onError: (e) => setImportError(e.message),
  });
  useEffect(() => {
    document.title = 'Recipes';
  }, []);

  const onFile = async (file: File | undefined) => {
    setImportError(null);
    if (!file) return;
    importRecipe.mutate({ json: await file.text() });
    if (fileInput.current) fileInput.current.value = '';
  };

  return (
    <main className="page recipe-list-page">
      <header className="page-hero">
        <h1>Recipes</h1>
        <nav className="link-row" aria-label="Recipe tools">
          {canAuthor && (
            <Link className="button primary" to={`${RECIPES_HOME}/new`}>
              New recipe
            </Link>
          )}
          <Link className="button" to={`${RECIPES_HOME}/settings`}>
            Settings
          </Link>
          {canAuthor && (
            <label className="button file-button">
              {importRecipe.isPending ? 'Importing...' : 'Import JSON-LD'}
              <input
                ref={fileInput}
                type="file"
                accept=".json,.jsonld,application/ld+json,application/json"
                className="visually-hidden"
                onChange={(event) => void onFile(event.target.files?.[0])}
              />
            </label>
          )}
        </nav>
        <ErrorBubble message={importError} />
      </header>
      <section className="card" aria-labelledby="recipe-list-title">
        <h2 id="recipe-list-title" className="visually-hidden">
          All recipes
        </h2>
        <TextInput label="Search titles and ingredients" type="search" value={search} onValueChange={setSearch} autoComplete="off" />
        <ErrorBubble message={list.error ? list.error.message : null} />
        {list.data && list.data.length === 0 && <p className="small">{query ? 'No recipe matches.' : 'No recipes yet.'}</p>}
        <ul className="recipe-list">
          {list.data?.map((recipe) => (
            <li key={recipe.recipe_id}>
              <Link to={viewHref(settings.defaultView, recipe.recipe_id)}>
                {[recipe.title, recipe.author, recipe.uploaded_date].filter(Boolean).join(' - ')}
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </main>
  );
}
