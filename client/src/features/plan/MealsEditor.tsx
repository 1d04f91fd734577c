import { useState } from 'react';
import { PLAN_LIMITS, type PlanMeal } from '@site/contracts/plan';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { TextInput } from '../../components/TextInput.tsx';
import { trpc } from '../../lib/trpc.ts';
import { Field } from './SelectField.tsx';

type Row = PlanMeal & { from: string | null };

/** The owner's: the day's meals, renamed, retimed (the calendar feed's time) or added. */
export function MealsEditor({ meals }: { meals: PlanMeal[] }) {
  const utils = trpc.useUtils();
  const [rows, setRows] = useState<Row[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const save = trpc.plan.saveMeals.useMutation({
    onMutate: () => setError(null),
    onSuccess: () => void utils.plan.week.invalidate().then(() => setRows(null)),
    onError: (e) => setError(e.message),
  });
  if (rows === null) {
    return (
      <section className="card" aria-labelledby="plan-meals-title">
        <h2 id="plan-meals-title">Meals of the day</h2>
        <p>
          {meals.map((m) => `${m.name} ${m.time}`).join(' · ')}{' '}
          <button type="button" className="button small-button" onClick={() => setRows(meals.map((m) => ({ ...m, from: m.name })))}>
            Change meals
          </button>
        </p>
      </section>
    );
  }
  const change = (i: number, patch: Partial<Row>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <section className="card" aria-labelledby="plan-meals-title">
      <h2 id="plan-meals-title">Meals of the day</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ meals: rows.map(({ name, time }) => ({ name, time })), renamedFrom: rows.map((r) => r.from) });
        }}
      >
        {rows.map((row, i) => (
          <div key={i} className="plan-inline">
            <TextInput label={`Meal ${i + 1}`} value={row.name} onValueChange={(name) => change(i, { name })} maxLength={PLAN_LIMITS.mealName} compact />
            <Field label={`Time of meal ${i + 1}`}>{(id) => <input id={id} type="time" value={row.time} onChange={(e) => change(i, { time: e.target.value })} />}</Field>
            <button type="button" className="button small-button" onClick={() => setRows(rows.filter((_, j) => j !== i))} aria-label={`Remove ${row.name || `meal ${i + 1}`}`}>
              Remove
            </button>
          </div>
        ))}
        <div className="link-row">
          {rows.length < PLAN_LIMITS.meals && (
            <button type="button" className="button" onClick={() => setRows([...rows, { name: '', time: '16:00', from: null }])}>
              Add a meal
            </button>
          )}
          <button type="submit" className="button primary" disabled={save.isPending}>
            Save meals
          </button>
          <button type="button" className="button" onClick={() => setRows(null)}>
            Cancel
          </button>
        </div>
        <p className="small">A meal removed takes its planned slots with it.</p>
      </form>
      <ErrorBubble message={error} />
    </section>
  );
}
