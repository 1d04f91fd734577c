import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { LoadProblem, type LoadedQuery } from '../../components/Loaded.tsx';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { trpc } from '../../lib/trpc.ts';
import { AddToHouse } from './AddToHouse.tsx';
import { IngredientView, ServingsControl } from './Ingredients.tsx';
import { RecipeFacts, SectionHeading } from './RecipeFacts.tsx';
import { RECIPES_HOME, useCanAuthor, useRecipe, useRecipeSettings, useUnits, viewHref } from './recipe-data.ts';

function download(name: string, content: string, type: string) {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Title, foreword, ingredient tiles, and numbered steps (with their own ingredients when the box is checked). */
export function RecipePageView() {
  const { id: idText } = useParams();
  const { id, loaded, error, query } = useRecipe(idText);
  const { settings } = useRecipeSettings();
  const canAuthor = useCanAuthor();
  const units = useUnits();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const [showOnSteps, setShowOnSteps] = useState(false);
  const [servings, setServings] = useState<number | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const remove = trpc.recipes.delete.useMutation({
    onSuccess: async () => {
      await utils.recipes.list.invalidate();
      void navigate(RECIPES_HOME);
    },
    onError: (e) => setActionError(e.message),
  });

  useEffect(() => {
    if (loaded) document.title = loaded.recipe.title;
  }, [loaded]);

  if (error || !loaded) return <RecipeNotLoaded error={error} query={query} />;
  const { recipe, steps } = loaded;
  const base = recipe.servings ?? 1;
  const scale = { servings: servings ?? base, baseServings: base };
  const all = steps.flatMap((s) => s.ingredients);

  const exportRecipe = async () => {
    setActionError(null);
    try {
      const document = await utils.recipes.exportJsonLd.fetch({ recipeId: id });
      download(`${recipe.title}.jsonld`, JSON.stringify(document, null, 2), 'application/ld+json');
    } catch (e) {
      setActionError((e as Error).message);
    }
  };

  return (
    <main className="page recipe-page">
      <header className="page-hero">
        <p className="breadcrumb">
          <Link to={RECIPES_HOME}>Recipes</Link>
        </p>
        <h1>{recipe.title}</h1>
        {recipe.author && <p className="recipe-byline">by {recipe.author}</p>}
        <RecipeFacts recipe={recipe} servings={scale.servings} />
        {recipe.foreword && <p className="lead recipe-foreword">{recipe.foreword}</p>}
        <nav className="link-row recipe-actions" aria-label="Recipe views and actions">
          <Link className="button" to={viewHref('steps', id)}>
            Steps view
          </Link>
          <Link className="button" to={viewHref('printer', id)}>
            Printer friendly
          </Link>
          {canAuthor && (
            <Link className="button" to={`${RECIPES_HOME}/edit/${id}`}>
              Edit
            </Link>
          )}
          <button type="button" className="button" onClick={() => void exportRecipe()}>
            Export JSON-LD
          </button>
          {canAuthor && (
            <button
              type="button"
              className="button"
              disabled={remove.isPending}
              onClick={() => {
                if (window.confirm(`Delete "${recipe.title}"? This cannot be undone.`)) remove.mutate({ recipeId: id });
              }}
            >
              Delete
            </button>
          )}
        </nav>
        <ErrorBubble message={actionError} />
      </header>

      <section className="card" aria-labelledby="ingredients-title">
        <div className="card-header recipe-ingredients-header">
          <h2 id="ingredients-title">Ingredients</h2>
          <ServingsControl value={scale.servings} onChange={setServings} />
        </div>
        {all.length === 0 ? <p className="small">No ingredients listed.</p> : <IngredientView ingredients={all} settings={settings} units={units} scale={scale} label="Ingredients" />}
        {all.length > 0 && <AddToHouse ingredients={all} settings={settings} units={units} scale={scale} />}
      </section>

      <section className="card" aria-labelledby="steps-title">
        <div className="card-header">
          <h2 id="steps-title">Steps</h2>
          <label className="checkbox">
            <input type="checkbox" checked={showOnSteps} onChange={(event) => setShowOnSteps(event.target.checked)} />
            Show Ingredients on Steps
          </label>
        </div>
        <ol className="recipe-steps">
          {steps.map((step, i) => (
            <li key={i}>
              <SectionHeading section={step.section} />
              <p className="recipe-instructions">{step.instructions}</p>
              {showOnSteps && (
                <IngredientView ingredients={step.ingredients} settings={settings} units={units} scale={scale} label={`Ingredients of step ${i + 1}`} />
              )}
            </li>
          ))}
        </ol>
      </section>
    </main>
  );
}

/** What a recipe's page shows until the recipe is there: why it cannot be, or the wait (and a failed load's reason). */
export function RecipeNotLoaded({ error, query, className = 'page' }: { error: string | null; query: LoadedQuery<unknown>; className?: string }) {
  if (error) return <RecipeMissing message={error} />;
  return (
    <main className={className} aria-busy={query.error ? undefined : true}>
      <LoadProblem query={query} what="the recipe" />
    </main>
  );
}

export function RecipeMissing({ message }: { message: string }) {
  return (
    <main className="page narrow-page">
      <section className="card">
        <h1>Recipe not found</h1>
        <ErrorBubble message={message} />
        <p>
          <Link to={RECIPES_HOME}>Back to the recipes</Link>
        </p>
      </section>
    </main>
  );
}
