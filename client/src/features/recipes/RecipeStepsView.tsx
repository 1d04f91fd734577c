import { useCallback, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { IngredientView, ServingsControl } from './Ingredients.tsx';
import { SectionHeading } from './RecipeFacts.tsx';
import { RecipeNotLoaded } from './RecipePageView.tsx';
import { useRecipe, useRecipeSettings, useUnits, viewHref } from './recipe-data.ts';

type WakeLockSentinelLike = { release(): Promise<void> };
type WakeLockLike = { request(type: 'screen'): Promise<WakeLockSentinelLike> };

/** Keeps the screen awake while the page is open and visible, where the browser offers Wake Lock. */
function useWakeLock(): boolean {
  const [held, setHeld] = useState(false);
  useEffect(() => {
    const wakeLock = (navigator as Navigator & { wakeLock?: WakeLockLike }).wakeLock;
    if (!wakeLock) return;
    let sentinel: WakeLockSentinelLike | null = null;
    let active = true;
    const acquire = () => {
      if (document.visibilityState !== 'visible') return;
      wakeLock.request('screen').then(
        (s) => {
          if (active) {
            sentinel = s;
            setHeld(true);
          } else void s.release();
        },
        () => setHeld(false),
      );
    };
    acquire();
    // The browser releases the lock when the tab is hidden; take it again on return.
    document.addEventListener('visibilitychange', acquire);
    return () => {
      active = false;
      document.removeEventListener('visibilitychange', acquire);
      void sentinel?.release();
    };
  }, []);
  return held;
}

/** One step at a time in large type, for cooking: buttons and arrow keys move between steps. */
export function RecipeStepsView() {
  const { id: idText } = useParams();
  const { id, loaded, error, query } = useRecipe(idText);
  const { settings } = useRecipeSettings();
  const units = useUnits();
  const [index, setIndex] = useState(0);
  const [servings, setServings] = useState<number | null>(null);
  const awake = useWakeLock();
  const count = loaded?.steps.length ?? 0;
  const go = useCallback((delta: number) => setIndex((i) => Math.min(Math.max(i + delta, 0), Math.max(count - 1, 0))), [count]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) return;
      if (event.key === 'ArrowRight' || event.key === 'PageDown') go(1);
      else if (event.key === 'ArrowLeft' || event.key === 'PageUp') go(-1);
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go]);
  useEffect(() => {
    if (loaded) document.title = `${loaded.recipe.title} - steps`;
  }, [loaded]);

  if (error || !loaded) return <RecipeNotLoaded error={error} query={query} />;
  const step = loaded.steps[index];
  const base = loaded.recipe.servings ?? 1;
  const scale = { servings: servings ?? base, baseServings: base };

  return (
    <main className="page recipe-steps-view">
      <header className="steps-header">
        <p className="breadcrumb">
          <Link to={viewHref('page', id)}>{loaded.recipe.title}</Link>
          {awake && <span className="saved-note">Screen kept awake</span>}
        </p>
        <ServingsControl value={scale.servings} onChange={setServings} />
      </header>
      <section className="card step-card" aria-live="polite" aria-labelledby="step-number">
        {step && <SectionHeading section={step.section} />}
        <h1 id="step-number">
          Step {index + 1} of {count}
        </h1>
        <p className="step-instructions">{step?.instructions}</p>
        {step && step.ingredients.length > 0 && (
          <IngredientView ingredients={step.ingredients} settings={settings} units={units} scale={scale} label={`Ingredients of step ${index + 1}`} />
        )}
      </section>
      <nav className="link-row step-nav" aria-label="Steps">
        <button type="button" className="button" disabled={index === 0} onClick={() => go(-1)}>
          ← Previous
        </button>
        <button type="button" className="button primary" disabled={index >= count - 1} onClick={() => go(1)}>
          Next →
        </button>
        <span className="small">Arrow keys move between steps.</span>
      </nav>
    </main>
  );
}
