import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import {
  INGREDIENT_VIEWS,
  INGREDIENT_VIEW_LABELS,
  MEASUREMENT_SYSTEMS,
  MEASUREMENT_SYSTEM_LABELS,
  RECIPE_VIEWS,
  RECIPE_VIEW_LABELS,
  type RecipeSettings,
} from '@site/contracts/recipes';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { trpc } from '../../lib/trpc.ts';
import { RECIPES_HOME, useRecipeSettings } from './recipe-data.ts';
import { LoadProblem } from '../../components/Loaded.tsx';

type Choice<K extends keyof RecipeSettings> = { key: K; title: string; options: readonly { value: RecipeSettings[K]; label: string }[] };

/** The spec's true/false settings, each side named by what it shows. */
const fractionForms = [
  { value: false, label: 'Mixed numbers (1 1/2)' },
  { value: true, label: 'Improper fractions (3/2)' },
] as const;
const decimalForms = [
  { value: false, label: 'Fractions (1/2)' },
  { value: true, label: 'Decimals (0.5)' },
] as const;

const CHOICES = [
  { key: 'defaultView', title: 'Default View', options: RECIPE_VIEWS.map((value) => ({ value, label: RECIPE_VIEW_LABELS[value] })) },
  { key: 'ingredientView', title: 'Ingredient View', options: INGREDIENT_VIEWS.map((value) => ({ value, label: INGREDIENT_VIEW_LABELS[value] })) },
  { key: 'measurementSystem', title: 'Measurement System', options: MEASUREMENT_SYSTEMS.map((value) => ({ value, label: MEASUREMENT_SYSTEM_LABELS[value] })) },
  { key: 'improperFractions', title: 'Improper fractions', options: fractionForms },
  { key: 'decimals', title: 'Decimals', options: decimalForms },
] as const satisfies readonly Choice<keyof RecipeSettings>[];

/** Every setting is saved for the member as soon as it is picked, and the recipe pages follow it. */
export function RecipeSettingsPage() {
  const utils = trpc.useUtils();
  const { settings, ready, query } = useRecipeSettings();
  const save = trpc.recipes.saveSettings.useMutation({
    onMutate: (next) => utils.recipes.settings.setData(undefined, next),
    onSuccess: (saved) => utils.recipes.settings.setData(undefined, saved),
    onError: () => void utils.recipes.settings.invalidate(),
  });
  useEffect(() => {
    document.title = 'Recipe settings';
  }, []);

  return (
    <main className="page recipe-settings-page">
      <header className="page-hero">
        <p className="breadcrumb">
          <Link to={RECIPES_HOME}>Recipes</Link>
        </p>
        <h1>Recipe settings</h1>
        <p className="lead">How recipes open and how their ingredients read. Saved to your account as you choose.</p>
      </header>
      {/* Failed, the page shows that, never the defaults as if they were the member's choices. */}
      <LoadProblem query={query} what="your recipe settings" />
      {ready &&
        CHOICES.map((choice) => (
          <section key={choice.key} className="card" aria-labelledby={`setting-${choice.key}`}>
            <h2 id={`setting-${choice.key}`}>{choice.title}</h2>
            <div className="segmented" role="radiogroup" aria-labelledby={`setting-${choice.key}`}>
              {choice.options.map((option) => {
                const checked = settings[choice.key] === option.value;
                return (
                  <button
                    key={String(option.value)}
                    type="button"
                    role="radio"
                    aria-checked={checked}
                    className={checked ? 'selected' : undefined}
                    onClick={() => save.mutate({ ...settings, [choice.key]: option.value })}
                  >
                    {option.label}
                  </button>
                );
              })}
            </div>
          </section>
        ))}
      <ErrorBubble message={save.error ? save.error.message : null} />
      {save.isSuccess && (
        <p role="status" className="saved-note">
          Saved.
        </p>
      )}
    </main>
  );
}
