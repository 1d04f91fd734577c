import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { exactQuantityText, parseQuantity, RECIPE_LIMITS, stepsInOrder, type Recipe, type RecipeInput, type UnitDict } from '@site/contracts/recipes';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { LoadProblem } from '../../components/Loaded.tsx';
import { NumberInput } from '../../components/NumberInput.tsx';
import { parseNumber } from '../../components/number.ts';
import { TextInput } from '../../components/TextInput.tsx';
import { trpc } from '../../lib/trpc.ts';
import { ImageField } from './ImageField.tsx';
import { RECIPES_HOME, useRecipe, useUnits, viewHref } from './recipe-data.ts';

type IngredientDraft = { name: string; plural_name: string; quantity: string; unit: string; note: string; image: string | null };
type StepDraft = { section: string; instructions: string; ingredients: IngredientDraft[] };
type Times = { prep: string; cook: string; total: string };
type Draft = { title: string; author: string; servings: string; foreword: string; times: Times; steps: StepDraft[] };

const emptyIngredient = (): IngredientDraft => ({ name: '', plural_name: '', quantity: '', unit: '', note: '', image: null });
const emptyStep = (): StepDraft => ({ section: '', instructions: '', ingredients: [] });
const emptyDraft = (): Draft => ({ title: '', author: '', servings: '', foreword: '', times: { prep: '', cook: '', total: '' }, steps: [emptyStep()] });

/** '2' or a range '2-3' (either end may be '1 1/2'), as the editor shows it. */
const rangeText = (low: number | null, high: number | null, write: (n: number) => string = String) =>
  low === null ? '' : high === null ? write(low) : `${write(low)} - ${write(high)}`;
const minutesText = (minutes: number | null) => (minutes === null ? '' : String(minutes));

/** '2', '1 1/2', '2-3', '2 - 2 1/2', '4 to 5': [low, high or null]; null when it is not a number or range. */
function parseRange(text: string, read: (part: string) => number | null): [number, number | null] | null {
  const parts = text.split(/\s*(?:–|to|(?<=\d)\s*-\s*(?=\d))\s*/);
  const [low, high] = parts.map((p) => read(p.trim()));
  if (parts.length > 2 || low === null || low === undefined || high === null) return null;
  return [low, high === undefined || high <= low ? null : high];
}

function draftOf(recipe: Recipe): Draft {
  return {
    title: recipe.title,
    author: recipe.author,
    servings: rangeText(recipe.servings, recipe.servings_max),
    foreword: recipe.foreword,
    times: { prep: minutesText(recipe.prep_minutes), cook: minutesText(recipe.cook_minutes), total: minutesText(recipe.total_minutes) },
    steps: stepsInOrder(recipe).map((step) => ({
      section: step.section,
      instructions: step.instructions,
      ingredients: step.ingredients.map((i) => ({
        name: i.name,
        plural_name: i.plural_name === i.name ? '' : i.plural_name,
        quantity: rangeText(i.quantity, i.quantity_max, exactQuantityText),
        unit: i.unit_abbreviation ?? '',
        note: i.note,
        image: i.image,
      })),
    })),
  };
}

/** Minutes are whole: the server refuses a fraction (recipes.schemas' wholeCount). */
const timeRules = (label: string) => ({ label, whole: true, min: 1, max: RECIPE_LIMITS.minutes });
const TIME_RULES = { prep: timeRules('Prep time'), cook: timeRules('Cook time'), total: timeRules('Total time') };

/** The form as the server's input, or the first thing a person must fix. */
function toInput(draft: Draft): { input: RecipeInput } | { error: string } {
  const servingsText = draft.servings.trim();
  const wholeNumber = (part: string) => (/^\d+$/.test(part) && Number(part) >= 1 ? Number(part) : null);
  const servingsRange = servingsText === '' ? [null, null] : parseRange(servingsText, wholeNumber);
  if (servingsRange === null) return { error: 'Servings must be a whole number of at least 1, or a range like 8-10' };
  const [servings, servings_max] = servingsRange;
  const minutes: Record<keyof Times, number | null> = { prep: null, cook: null, total: null };
  for (const key of ['prep', 'cook', 'total'] as const) {
    const parsed = parseNumber(draft.times[key], TIME_RULES[key]);
    if (!parsed.ok) return { error: parsed.message };
    minutes[key] = parsed.value;
  }
  const steps: RecipeInput['steps'] = [];
  for (const [s, step] of draft.steps.entries()) {
    const ingredients = [];
    for (const [i, ingredient] of step.ingredients.entries()) {
      const quantityText = ingredient.quantity.trim();
      const range = quantityText === '' ? [null, null] : parseRange(quantityText, parseQuantity);
      if (range === null) {
        return { error: `Step ${s + 1}, ingredient ${i + 1}: the quantity must be a number like 2, 1.5 or 1 1/2, or a range like 2-3` };
      }
      const [quantity, quantity_max] = range;
      ingredients.push({
        name: ingredient.name,
        plural_name: ingredient.plural_name.trim() || ingredient.name,
        quantity,
        quantity_max,
        note: ingredient.note,
        unit_abbreviation: ingredient.unit || null,
        image: ingredient.image,
      });
    }
    steps.push({ section: step.section, instructions: step.instructions, ingredients });
  }
  const { title, author, foreword } = draft;
  return {
    input: { title, author, foreword, servings, servings_max, prep_minutes: minutes.prep, cook_minutes: minutes.cook, total_minutes: minutes.total, steps },
  };
}

function UnitSelect({ id, value, units, onChange }: { id: string; value: string; units: UnitDict; onChange: (value: string) => void }) {
  return (
    <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
      <option value="">(none)</option>
      {value !== '' && !units[value] && <option value={value}>{value}</option>}
      {Object.entries(units).map(([abbreviation, unit]) => (
        <option key={abbreviation} value={abbreviation}>
          {abbreviation} ({unit.name})
        </option>
      ))}
    </select>
  );
}

function Editor({ initial, recipeId }: { initial: Draft; recipeId?: number }) {
  const [draft, setDraft] = useState(initial);
  // A message belongs to the draft it was about: any change to the form takes it away.
  const [failure, setFailure] = useState<{ message: string; draft: Draft } | null>(null);
  const error = failure?.draft === draft ? failure.message : null;
  const setError = (message: string) => setFailure({ message, draft });
  const units = useUnits();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const done = async (id: number) => {
    await Promise.all([utils.recipes.list.invalidate(), utils.recipes.get.invalidate({ recipeId: id })]);
    void navigate(viewHref('page', id));
  };
  const create = trpc.recipes.create.useMutation({ onSuccess: ({ recipe_id }) => done(recipe_id), onError: (e) => setError(e.message) });
  const update = trpc.recipes.update.useMutation({ onSuccess: (r) => done(r.recipe_id), onError: (e) => setError(e.message) });
  const pending = create.isPending || update.isPending;

  const setStep = (s: number, change: Partial<StepDraft>) =>
    setDraft((d) => ({ ...d, steps: d.steps.map((step, i) => (i === s ? { ...step, ...change } : step)) }));
  const setIngredient = (s: number, n: number, change: Partial<IngredientDraft>) =>
    setDraft((d) => ({
      ...d,
      steps: d.steps.map((step, i) => (i === s ? { ...step, ingredients: step.ingredients.map((ing, j) => (j === n ? { ...ing, ...change } : ing)) } : step)),
    }));
  const moveStep = (s: number, delta: number) =>
    setDraft((d) => {
      const steps = [...d.steps];
      const [step] = steps.splice(s, 1);
      if (step) steps.splice(s + delta, 0, step);
      return { ...d, steps };
    });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const result = toInput(draft);
    if ('error' in result) return setError(result.error);
    if (recipeId === undefined) create.mutate(result.input);
    else update.mutate({ recipeId, recipe: result.input });
  };

  return (
    <form className="recipe-editor" onSubmit={submit} noValidate>
      <section className="card">
        <TextInput label="Title" value={draft.title} onValueChange={(title) => setDraft({ ...draft, title })} required maxLength={200} />
        <div className="editor-row">
          <TextInput label="Author" value={draft.author} onValueChange={(author) => setDraft({ ...draft, author })} maxLength={200} />
          <TextInput label="Servings" placeholder="4, or 8-10" value={draft.servings} onValueChange={(servings) => setDraft({ ...draft, servings })} />
        </div>
        <div className="editor-row">
          {(['prep', 'cook', 'total'] as const).map((key) => (
            <NumberInput
              key={key}
              label={`${TIME_RULES[key].label} (minutes)`}
              rules={TIME_RULES[key]}
              value={draft.times[key]}
              onValueChange={(value) => setDraft({ ...draft, times: { ...draft.times, [key]: value } })}
            />
          ))}
        </div>
        <div className="field">
          <label htmlFor="foreword">Foreword</label>
          <textarea id="foreword" rows={3} value={draft.foreword} onChange={(event) => setDraft({ ...draft, foreword: event.target.value })} />
        </div>
      </section>

      {draft.steps.map((step, s) => (
        <section key={s} className="card editor-step" aria-labelledby={`step-${s}-title`}>
          <div className="card-header">
            <h2 id={`step-${s}-title`}>Step {s + 1}</h2>
            <div className="link-row">
              <button type="button" className="button" disabled={s === 0} onClick={() => moveStep(s, -1)} aria-label={`Move step ${s + 1} up`}>
                ↑
              </button>
              <button type="button" className="button" disabled={s === draft.steps.length - 1} onClick={() => moveStep(s, 1)} aria-label={`Move step ${s + 1} down`}>
                ↓
              </button>
              <button
                type="button"
                className="button"
                disabled={draft.steps.length === 1}
                onClick={() => setDraft({ ...draft, steps: draft.steps.filter((_, i) => i !== s) })}
              >
                Remove step {s + 1}
              </button>
            </div>
          </div>
          <TextInput
            label={`Step ${s + 1} section heading (optional)`}
            placeholder="For the sauce"
            value={step.section}
            onValueChange={(section) => setStep(s, { section })}
            maxLength={200}
          />
          <div className="field">
            <label htmlFor={`step-${s}-instructions`}>Step {s + 1} instructions</label>
            <textarea id={`step-${s}-instructions`} rows={3} value={step.instructions} onChange={(event) => setStep(s, { instructions: event.target.value })} />
          </div>
          {step.ingredients.map((ingredient, n) => {
            const prefix = `Step ${s + 1} ingredient ${n + 1}`;
            return (
              <fieldset key={n} className="editor-ingredient">
                <legend>{prefix}</legend>
                <TextInput label="Quantity" aria-label={`${prefix} quantity`} className="quantity" value={ingredient.quantity} onValueChange={(quantity) => setIngredient(s, n, { quantity })} />
                <div className="field unit">
                  <label htmlFor={`step-${s}-ing-${n}-unit`}>Unit</label>
                  <UnitSelect id={`step-${s}-ing-${n}-unit`} value={ingredient.unit} units={units} onChange={(unit) => setIngredient(s, n, { unit })} />
                </div>
                <TextInput label="Name" aria-label={`${prefix} name`} value={ingredient.name} onValueChange={(name) => setIngredient(s, n, { name })} />
                <TextInput
                  label="Plural name"
                  aria-label={`${prefix} plural name`}
                  placeholder="same as the name"
                  value={ingredient.plural_name}
                  onValueChange={(plural_name) => setIngredient(s, n, { plural_name })}
                />
                <TextInput label="Note" aria-label={`${prefix} note`} value={ingredient.note} onValueChange={(note) => setIngredient(s, n, { note })} />
                <ImageField label={prefix} image={ingredient.image} onChange={(image) => setIngredient(s, n, { image })} />
                <button
                  type="button"
                  className="button"
                  onClick={() => setStep(s, { ingredients: step.ingredients.filter((_, j) => j !== n) })}
                  aria-label={`Remove ${prefix.toLowerCase()}`}
                >
                  Remove
                </button>
              </fieldset>
            );
          })}
          <button type="button" className="button" onClick={() => setStep(s, { ingredients: [...step.ingredients, emptyIngredient()] })}>
            Add ingredient to step {s + 1}
          </button>
        </section>
      ))}

      <div className="link-row editor-actions">
        <button type="button" className="button" onClick={() => setDraft({ ...draft, steps: [...draft.steps, emptyStep()] })}>
          Add step
        </button>
        <button type="submit" className="button primary" disabled={pending}>
          {pending ? 'Saving...' : 'Save recipe'}
        </button>
        {/* A button-styled link: the link colour on a card is below AA with the default colours. */}
        <Link className="button" to={recipeId === undefined ? RECIPES_HOME : viewHref('page', recipeId)}>
          Cancel
        </Link>
      </div>
      <ErrorBubble message={error} />
    </form>
  );
}

/** Create (/personal/recipes/new) or edit (/personal/recipes/edit/{id}) a recipe. */
export function RecipeEditorPage() {
  const { id: idText } = useParams();
  const editing = idText !== undefined;
  const { id, loaded, error, query } = useRecipe(editing ? idText : '0');
  useEffect(() => {
    document.title = editing ? 'Edit recipe' : 'New recipe';
  }, [editing]);
  return (
    <main className="page recipe-editor-page">
      <header className="page-hero">
        <p className="breadcrumb">
          <Link to={RECIPES_HOME}>Recipes</Link>
        </p>
        <h1>{editing ? `Edit ${loaded?.recipe.title ?? 'recipe'}` : 'New recipe'}</h1>
      </header>
      {editing && error && <ErrorBubble message={error} />}
      {editing && !error && <LoadProblem query={query} what="the recipe" />}
      {!editing && <Editor initial={emptyDraft()} />}
      {editing && loaded && <Editor key={id} initial={draftOf(loaded.recipe)} recipeId={id} />}
    </main>
  );
}
