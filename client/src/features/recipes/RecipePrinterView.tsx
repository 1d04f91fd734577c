import { useEffect } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useDisplay } from './Ingredients.tsx';
import { RecipeFacts, SectionHeading } from './RecipeFacts.tsx';
import { RecipeNotLoaded } from './RecipePageView.tsx';
import { useRecipe, useRecipeSettings, useUnits, viewHref } from './recipe-data.ts';

/** White page, title, foreword, ingredient bullets, numbered steps; the shell shows no navbar here ('print' in the address). */
export function RecipePrinterView() {
  const { id: idText } = useParams();
  const { id, loaded, error, query } = useRecipe(idText);
  const { settings } = useRecipeSettings();
  const units = useUnits();
  const base = loaded?.recipe.servings ?? 1;
  const show = useDisplay(settings, units, { servings: base, baseServings: base });

  useEffect(() => {
    document.documentElement.classList.add('print-page');
    return () => document.documentElement.classList.remove('print-page');
  }, []);
  useEffect(() => {
    if (loaded) document.title = loaded.recipe.title;
  }, [loaded]);

  if (error || !loaded) return <RecipeNotLoaded error={error} query={query} className="printer-view" />;
  const { recipe, steps } = loaded;
  const all = steps.flatMap((s) => s.ingredients);
  return (
    <main className="printer-view">
      <nav className="printer-controls" aria-label="Printing">
        <Link to={viewHref('page', id)}>Back to the recipe</Link>
        <button type="button" onClick={() => window.print()}>
          Print
        </button>
      </nav>
      <article>
        <h1>{recipe.title}</h1>
        {recipe.author && <p className="printer-byline">by {recipe.author}</p>}
        <RecipeFacts recipe={recipe} />
        {recipe.foreword && <p className="printer-foreword">{recipe.foreword}</p>}
        {all.length > 0 && (
          <>
            <h2>Ingredients</h2>
            <ul className="printer-ingredients">
              {all.map((ingredient, i) => (
                <li key={i}>{[show(ingredient).text, ingredient.note].filter(Boolean).join(' ')}</li>
              ))}
            </ul>
          </>
        )}
        <h2>Steps</h2>
        <ol className="printer-steps">
          {steps.map((step, i) => (
            <li key={i}>
              <SectionHeading section={step.section} />
              {step.instructions}
            </li>
          ))}
        </ol>
      </article>
    </main>
  );
}
