import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { PLAN_LIMITS, addDays, daysBetween, mondayOf, planMessages, type PlanDate, type PlanSlot } from '@site/contracts/plan';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { Loaded } from '../../components/Loaded.tsx';
import { NumberInput } from '../../components/NumberInput.tsx';
import { parseNumber, type NumberRules } from '../../components/number.ts';
import { TextInput } from '../../components/TextInput.tsx';
import { viewerOf } from '../../lib/access.ts';
import { useLive } from '../../lib/live.ts';
import { trpc } from '../../lib/trpc.ts';
import { dayLabel, localToday, longDayLabel } from './plan-dates.ts';
import { MealsEditor } from './MealsEditor.tsx';
import { SelectField } from './SelectField.tsx';
import './plan.css';

type Editing = { date: PlanDate; meal: string; slot: PlanSlot | undefined };

/** "2,5" is refused with the server's words, never sent as nothing (which would mean "as the recipe"). */
const SERVINGS: NumberRules = { label: 'Servings', whole: true, min: 1, max: PLAN_LIMITS.servings, message: planMessages.badServings };

/** The form of one meal: a recipe chosen by typing its title (or a free text), who cooks, servings. */
function SlotForm({ editing, onDone }: { editing: Editing; onDone: () => void }) {
  const recipes = trpc.plan.recipes.useQuery();
  const members = trpc.plan.members.useQuery();
  const utils = trpc.useUtils();
  const [what, setWhat] = useState(editing.slot ? (editing.slot.title ?? editing.slot.text ?? '') : '');
  const [cook, setCook] = useState(editing.slot?.cook ?? '');
  const [servings, setServings] = useState(editing.slot?.servings ? String(editing.slot.servings) : '');
  const [error, setError] = useState<string | null>(null);
  const after = { onSuccess: () => void utils.plan.week.invalidate().then(onDone), onError: (e: { message: string }) => setError(e.message) };
  const set = trpc.plan.set.useMutation(after);
  const clear = trpc.plan.clear.useMutation(after);
  const recipe = recipes.data?.find((r) => r.title.toLocaleLowerCase() === what.trim().toLocaleLowerCase());
  const listId = `plan-recipes-${editing.date}-${editing.meal}`;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const count = parseNumber(servings, SERVINGS);
    if (!count.ok) return setError(count.message);
    set.mutate({ date: editing.date, meal: editing.meal, ...(recipe ? { recipeId: recipe.id } : { text: what }), cook: cook || null, servings: count.value });
  };
  return (
    <form className="plan-slot-form" onSubmit={submit} aria-label={`${editing.meal} on ${longDayLabel(editing.date)}`}>
      <TextInput label="Recipe or what is eaten" value={what} onValueChange={setWhat} list={listId} maxLength={PLAN_LIMITS.text} autoComplete="off" autoFocus required />
      <datalist id={listId}>
        {recipes.data?.map((r) => (
          <option key={r.id} value={r.title} />
        ))}
      </datalist>
      <p className="small plan-hint">{recipe ? `Recipe: ${recipe.title}` : what.trim() ? 'Free text (no recipe of that title)' : 'Type a recipe title, or anything: "Leftovers", "Pizza out".'}</p>
      <div className="plan-slot-fields">
        <SelectField label="Who cooks" value={cook} onValueChange={setCook}>
          <option value="">Nobody yet</option>
          {members.data?.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </SelectField>
        <NumberInput rules={SERVINGS} value={servings} onValueChange={setServings} placeholder={recipe ? 'As the recipe' : ''} />
      </div>
      <div className="link-row">
        <button type="submit" className="button primary" disabled={set.isPending}>
          Save
        </button>
        {editing.slot && (
          <button type="button" className="button" disabled={clear.isPending} onClick={() => clear.mutate({ date: editing.date, meal: editing.meal })}>
            Clear
          </button>
        )}
        <button type="button" className="button" onClick={onDone}>
          Cancel
        </button>
      </div>
      <ErrorBubble message={error} />
    </form>
  );
}

/** A meal as a line: the recipe (a link to it) or the text, who cooks and for how many. */
function SlotText({ slot }: { slot: PlanSlot }) {
  return (
    <>
      <span className="plan-what">{slot.title ?? slot.text}</span>
      {(slot.cook || slot.servings) && (
        <span className="plan-who">{[slot.cook ? `${slot.cook} cooks` : null, slot.servings ? `${slot.servings} servings` : null].filter(Boolean).join(' · ')}</span>
      )}
    </>
  );
}

/** The week's tools: copy last week, templates, and shopping the week into House To Get. */
function WeekTools({ start }: { start: PlanDate }) {
  const utils = trpc.useUtils();
  const templates = trpc.plan.templates.useQuery();
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState('');
  const handlers = (done: (text: string) => void) => ({
    onMutate: () => {
      setError(null);
      setMessage(null);
    },
    onError: (e: { message: string }) => setError(e.message),
    onSuccess: (text: string) => done(text),
  });
  const copy = trpc.plan.copyLastWeek.useMutation({ ...handlers(() => {}), onSuccess: (r) => void utils.plan.week.invalidate().then(() => setMessage(`Copied ${r.copied} meals from last week.`)) });
  const save = trpc.plan.saveTemplate.useMutation({
    ...handlers(() => {}),
    onSuccess: (t) => {
      setName('');
      setMessage(`Saved the week as "${t.name}".`);
      void utils.plan.templates.invalidate();
    },
  });
  const apply = trpc.plan.applyTemplate.useMutation({ ...handlers(() => {}), onSuccess: (r) => void utils.plan.week.invalidate().then(() => setMessage(`Planned ${r.copied} meals from the template.`)) });
  const shop = trpc.plan.shop.useMutation({
    ...handlers(() => {}),
    onSuccess: (r) =>
      setMessage(
        r.added + r.merged === 0 ? 'Everything for this week is already on House To Get.' : `Added to House To Get: ${r.added} new, ${r.merged} merged into lines already there.`,
      ),
  });
  return (
    <section className="card plan-tools" aria-labelledby="plan-tools-title">
      <h2 id="plan-tools-title">This week</h2>
      <div className="link-row">
        <button type="button" className="button primary" disabled={shop.isPending} onClick={() => shop.mutate({ start })}>
          Shop for the week
        </button>
        <button type="button" className="button" disabled={copy.isPending} onClick={() => copy.mutate({ start })}>
          Copy last week
        </button>
      </div>
      <form
        className="plan-inline"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ start, name });
        }}
      >
        <TextInput label="Template name" value={name} onValueChange={setName} maxLength={PLAN_LIMITS.templateName} />
        <button type="submit" className="button" disabled={save.isPending}>
          Save week as template
        </button>
      </form>
      {templates.data && templates.data.length > 0 && (
        <form
          className="plan-inline"
          onSubmit={(e) => {
            e.preventDefault();
            if (chosen) apply.mutate({ id: Number(chosen), start });
          }}
        >
          <SelectField label="Template" value={chosen} onValueChange={setChosen}>
            <option value="">Choose…</option>
            {templates.data.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name} ({t.slots} meals)
              </option>
            ))}
          </SelectField>
          <button type="submit" className="button" disabled={apply.isPending || !chosen}>
            Apply template
          </button>
        </form>
      )}
      {message && (
        <p className="small" role="status">
          {message} {message.startsWith('Added') && <Link to="/house">Open House To Get</Link>}
        </p>
      )}
      <ErrorBubble message={error} />
    </section>
  );
}

/** /house/plan: the family's week of meals, Monday first. */
export default function PlanPage() {
  const status = trpc.auth.status.useQuery();
  const owner = (viewerOf(status.data)?.level ?? 0) >= 3;
  const [start, setStart] = useState(() => mondayOf(localToday()));
  const week = trpc.plan.week.useQuery({ start });
  useLive(['plan']);
  const [editing, setEditing] = useState<Editing | null>(null);
  useEffect(() => {
    document.title = 'Meal plan';
  }, []);
  const today = week.data?.today ?? localToday();
  const move = (days: number) => {
    setEditing(null);
    setStart(addDays(start, days));
  };
  return (
    <main className="page plan-page">
      <header className="page-hero">
        <h1>Meal plan</h1>
        <p className="lead">The family&apos;s week of meals.</p>
      </header>
      <nav className="link-row plan-house-links" aria-label="House">
        <Link className="button" to="/house/chores">Chores</Link>
        <Link className="button" to="/house">House TODO</Link>
      </nav>
      <nav className="link-row plan-weeks" aria-label="Weeks">
        <button type="button" className="button" onClick={() => move(-7)}>
          Previous week
        </button>
        <button type="button" className="button" onClick={() => move(daysBetween(start, mondayOf(today)))} disabled={mondayOf(today) === start}>
          This week
        </button>
        <button type="button" className="button" onClick={() => move(7)}>
          Next week
        </button>
        <strong className="plan-range">
          {dayLabel(start)} – {dayLabel(addDays(start, 6))}
        </strong>
      </nav>
      <Loaded query={week} what="the meal plan" loading="Loading the week...">
        {(data) => (
          <div className="plan-days">
            {data.days.map((day) => (
              <section key={day.date} className={`card plan-day${day.date === today ? ' plan-today' : ''}`} aria-labelledby={`plan-day-${day.date}`}>
                <h2 id={`plan-day-${day.date}`}>
                  {longDayLabel(day.date)}
                  {day.date === today && <span className="plan-today-badge">Today</span>}
                </h2>
                <ul className="plan-meals">
                  {data.meals.map((meal) => {
                    const slot = day.slots.find((s) => s.meal === meal.name);
                    const open = editing?.date === day.date && editing.meal === meal.name;
                    return (
                      <li key={meal.name} className="plan-meal">
                        <span className="plan-meal-name">{meal.name}</span>
                        {open ? (
                          <SlotForm editing={editing} onDone={() => setEditing(null)} />
                        ) : (
                          <div className="plan-slot">
                            {slot ? <SlotText slot={slot} /> : <span className="plan-empty">Nothing planned</span>}
                            <button
                              type="button"
                              className="button small-button"
                              aria-label={`${slot ? 'Change' : 'Plan'} ${meal.name} on ${longDayLabel(day.date)}`}
                              onClick={() => setEditing({ date: day.date, meal: meal.name, slot })}
                            >
                              {slot ? 'Change' : 'Plan'}
                            </button>
                          </div>
                        )}
                      </li>
                    );
                  })}
                </ul>
              </section>
            ))}
          </div>
        )}
      </Loaded>
      <WeekTools start={start} />
      {owner && week.data && <MealsEditor meals={week.data.meals} />}
    </main>
  );
}
