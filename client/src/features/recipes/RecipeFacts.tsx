import { scaledYield, type Recipe } from '@site/contracts/recipes';

/** '45 min', '1 h', '1 h 15 min'. */
export function durationText(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return [hours ? `${hours} h` : '', rest ? `${rest} min` : ''].filter(Boolean).join(' ');
}

/**
 * Yield and times under the title: 'Serves 8-10' (both ends scaled with the servings chosen),
 * prep, cook and total time. Nothing when the recipe has none of them.
 */
export function RecipeFacts({ recipe, servings }: { recipe: Recipe; servings?: number }) {
  const facts: [string, string][] = [];
  if (recipe.servings !== null) facts.push(['Serves', scaledYield(recipe.servings, recipe.servings_max, servings ?? recipe.servings)]);
  if (recipe.prep_minutes !== null) facts.push(['Prep', durationText(recipe.prep_minutes)]);
  if (recipe.cook_minutes !== null) facts.push(['Cook', durationText(recipe.cook_minutes)]);
  if (recipe.total_minutes !== null) facts.push(['Total', durationText(recipe.total_minutes)]);
  if (facts.length === 0) return null;
  return (
    <dl className="recipe-facts">
      {facts.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A section heading ('For the sauce') before the step that starts it. */
export function SectionHeading({ section }: { section: string }) {
  return section ? <h3 className="recipe-section">{section}</h3> : null;
}
