import { useState } from 'react';
import { displayIngredient, type Ingredient, type RecipeSettings, type UnitDict } from '@site/contracts/recipes';
import { NumberInput } from '../../components/NumberInput.tsx';
import { numberText, parseNumber } from '../../components/number.ts';
import { imageHref } from './recipe-data.ts';

export type Scale = { servings: number; baseServings: number | null };

export function useDisplay(settings: RecipeSettings, units: UnitDict, scale: Scale) {
  return (ingredient: Ingredient) =>
    displayIngredient(ingredient, units, {
      improperFractions: settings.improperFractions,
      decimals: settings.decimals,
      system: settings.measurementSystem,
      servings: scale.servings,
      baseServings: scale.baseServings,
    });
}

type Props = { ingredients: Ingredient[]; settings: RecipeSettings; units: UnitDict; scale: Scale; label: string };

/** Ingredients in the member's chosen Ingredient View: a list (one column or fitted) or tiles with images. */
export function IngredientView({ ingredients, settings, units, scale, label }: Props) {
  const show = useDisplay(settings, units, scale);
  if (ingredients.length === 0) return null;
  const view = settings.ingredientView;
  if (view === 'list-single' || view === 'list-fit') {
    return (
      <ul className={`ingredient-list ${view}`} aria-label={label} data-view={view}>
        {ingredients.map((ingredient, i) => (
          <li key={i}>
            {show(ingredient).text}
            {ingredient.note && <span className="ingredient-note"> {ingredient.note}</span>}
          </li>
        ))}
      </ul>
    );
  }
  const perRow = Number(view.slice(-1));
  return (
    <ul className="ingredient-tiles" aria-label={label} data-view={view} style={{ ['--tiles-min' as string]: perRow }}>
      {ingredients.map((ingredient, i) => {
        const shown = show(ingredient);
        return (
          <li key={i} className="ingredient-tile">
            {ingredient.image ? (
              <img src={imageHref(ingredient.image)} alt="" loading="lazy" />
            ) : (
              <span className="ingredient-placeholder" aria-hidden="true">
                {ingredient.name.slice(0, 1).toUpperCase()}
              </span>
            )}
            <span className="ingredient-name">{shown.name}</span>
            {ingredient.note && <span className="ingredient-note">{ingredient.note}</span>}
            <span className="ingredient-quantity">{[shown.quantity, shown.unit].filter(Boolean).join(' ')}</span>
          </li>
        );
      })}
    </ul>
  );
}

const SERVINGS = { label: 'Servings', min: 1, max: 1000 } as const;

/**
 * The servings control: every quantity scales with it. Halves and other decimals count (2.5 servings
 * of a recipe for 2 scales by 1.25), typed with a comma or a point; the buttons step by one.
 */
export function ServingsControl({ value, onChange }: { value: number; onChange: (value: number) => void }) {
  const [text, setText] = useState(numberText(value));
  const step = (next: number) => {
    setText(numberText(next));
    onChange(next);
  };
  return (
    <div className="servings-control">
      <button type="button" className="button" aria-label="Fewer servings" disabled={value - 1 < SERVINGS.min} onClick={() => step(Math.max(SERVINGS.min, value - 1))}>
        −
      </button>
      <NumberInput
        id="servings"
        rules={SERVINGS}
        value={text}
        onValueChange={(typed) => {
          setText(typed);
          const parsed = parseNumber(typed, SERVINGS);
          if (parsed.ok && parsed.value !== null) onChange(parsed.value);
        }}
      />
      <button type="button" className="button" aria-label="More servings" disabled={value + 1 > SERVINGS.max} onClick={() => step(Math.min(SERVINGS.max, value + 1))}>
        +
      </button>
    </div>
  );
}
