import { useState } from 'react';
import { Link } from 'react-router-dom';
import { allows, procedures } from '@site/contracts/permissions';
import { scaleQuantity, type Ingredient, type RecipeSettings, type UnitDict } from '@site/contracts/recipes';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { currentPort, viewerOf } from '../../lib/access.ts';
import { trpc } from '../../lib/trpc.ts';
import { useDisplay, type Scale } from './Ingredients.tsx';

type Props = { ingredients: Ingredient[]; settings: RecipeSettings; units: UnitDict; scale: Scale };

/**
 * "Add to House To Get": a checklist of the ingredients as shown (scaled, in the chosen system), all
 * ticked; untick what is already at home. Members below level 2 see why the button does nothing.
 */
export function AddToHouse({ ingredients, settings, units, scale }: Props) {
  const status = trpc.auth.status.useQuery();
  const canAdd = allows(procedures['house.addIngredients'], viewerOf(status.data), currentPort());
  const show = useDisplay(settings, units, scale);
  const [open, setOpen] = useState(false);
  const [unticked, setUnticked] = useState<ReadonlySet<number>>(new Set());
  const add = trpc.house.addIngredients.useMutation({ onSuccess: () => setOpen(false) });
  const chosen = ingredients.flatMap((ingredient, i) => (unticked.has(i) ? [] : [ingredient]));

  if (!canAdd) {
    return (
      <p className="small recipe-house">
        <button type="button" className="button" disabled aria-describedby={status.isPending ? undefined : 'recipe-house-why'}>
          Add to House To Get
        </button>{' '}
        {!status.isPending && <span id="recipe-house-why">Adding to the House To Get list needs level 2 (Family).</span>}
      </p>
    );
  }
  const submit = () =>
    add.mutate({
      system: settings.measurementSystem,
      lines: chosen.map((ingredient) => ({
        name: ingredient.name,
        pluralName: ingredient.plural_name,
        quantity: ingredient.quantity === null || ingredient.quantity <= 0 ? null : scaleQuantity(ingredient.quantity, scale.servings, scale.baseServings),
        unit: ingredient.unit_abbreviation,
      })),
    });
  return (
    <div className="recipe-house">
      {!open ? (
        <button
          type="button"
          className="button"
          onClick={() => {
            add.reset();
            setUnticked(new Set());
            setOpen(true);
          }}
        >
          Add to House To Get
        </button>
      ) : (
        <fieldset className="recipe-house-list">
          <legend>Untick what is already at home</legend>
          {ingredients.map((ingredient, i) => (
            <label key={i} className="checkbox">
              <input
                type="checkbox"
                checked={!unticked.has(i)}
                onChange={(event) => {
                  const next = new Set(unticked);
                  if (event.target.checked) next.delete(i);
                  else next.add(i);
                  setUnticked(next);
                }}
              />
              {show(ingredient).text}
            </label>
          ))}
          <div className="link-row">
            <button type="button" className="button primary" disabled={add.isPending || chosen.length === 0} onClick={submit}>
              Add {chosen.length} to House To Get
            </button>
            <button type="button" className="button" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </div>
        </fieldset>
      )}
      <ErrorBubble message={add.error ? add.error.message : null} />
      {add.data && (
        <p className="small" role="status">
          Added to <Link to="/house">House To Get</Link>: {add.data.added} new, {add.data.merged} merged into lines already there.
        </p>
      )}
    </div>
  );
}
