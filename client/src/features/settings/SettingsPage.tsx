import { useEffect, useState } from 'react';
import { DEFAULT_COLORS, type ColorKey, type Colors } from '@site/contracts/settings';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { LoadProblem } from '../../components/Loaded.tsx';
import { COLOR_KEYS, applyColors, rotateAll } from '../../lib/colors.ts';
import { AA_RATIO, contrastRatio, sitePairs, suggestion } from '../../lib/contrast.ts';
import { useAskBeforeLeaving } from '../../lib/leave-guard.ts';
import { trpc } from '../../lib/trpc.ts';

export const COLOR_LABELS: Record<ColorKey, string> = {
  menuColor: 'Menus',
  backgroundColor: 'Background',
  foregroundColor: 'Text/Foreground',
  accentColor: 'Accents',
  linkColor: 'Links',
  errorColor: 'Errors',
  menuColor2: 'Secondary Menu',
};

/** The order of the pickers on the page, as the spec lists them. */
const PICKER_ORDER: ColorKey[] = ['menuColor', 'backgroundColor', 'foregroundColor', 'accentColor', 'linkColor', 'errorColor', 'menuColor2'];

type Props = { saved: Colors; clickToToggle: boolean };

/**
 * The contrast of every pair of colours the site draws text with, against WCAG AA (4.5:1); a pair
 * below it is flagged with the nearest shade that reads, one click away.
 */
function ContrastList({ colors, onFix }: { colors: Colors; onFix: (change: Partial<Colors>) => void }) {
  const pairs = sitePairs(colors).map((pair) => ({ pair, ratio: contrastRatio(pair.text, pair.on) }));
  const failing = pairs.filter((p) => p.ratio < AA_RATIO).length;
  // The site's own default colours are a choice, not a mistake of the member: their low pairs are advice.
  const defaults = COLOR_KEYS.every((key) => colors[key].toLowerCase() === DEFAULT_COLORS[key].toLowerCase());
  const pairsText = `${failing} ${failing === 1 ? 'pair is' : 'pairs are'} below WCAG AA (${AA_RATIO}:1)`;
  return (
    <div className="contrast" aria-labelledby="contrast-title">
      <h3 id="contrast-title">Readability</h3>
      <p className={failing > 0 && !defaults ? 'contrast-warning' : 'small'} role="status">
        {failing === 0
          ? `Every pair reads at WCAG AA (${AA_RATIO}:1) or better.`
          : defaults
            ? `Tip: with the default colours ${pairsText}. The suggestions below make them easier to read.`
            : `Warning: ${pairsText} and hard to read.`}
      </p>
      <ul className="contrast-list">
        {pairs.map(({ pair, ratio }) => {
          const low = ratio < AA_RATIO;
          const shade = low ? suggestion(pair) : null;
          return (
            <li key={pair.label} className={low ? `contrast-row low${defaults ? ' advice' : ''}` : 'contrast-row'} data-testid="contrast-row">
              {/* The pair drawn as it reads ("Aa" in the text colour on the colour under it), in SVG attributes:
                  a style attribute is not applied in every build, and left the squares empty. */}
              <svg className="contrast-sample" viewBox="0 0 44 32" width="44" height="32" aria-hidden="true" focusable="false" data-testid="contrast-sample">
                <rect width="44" height="32" rx="6" fill={pair.on} />
                <text x="22" y="21.5" textAnchor="middle" fontSize="15" fontWeight="700" fill={pair.text}>
                  Aa
                </text>
              </svg>
              <span className="contrast-label">{pair.label}</span>
              <span className="contrast-ratio">
                {ratio.toFixed(1)}:1{low ? (defaults ? ' (below AA)' : ' (too low)') : ''}
              </span>
              {shade && (
                <button type="button" className="button" onClick={() => onFix({ [pair.fix]: shade })}>
                  Use {shade} for {COLOR_LABELS[pair.fix]}
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

export const LEAVE_UNSAVED = 'Your new colours are not saved. Leave and go back to your saved colours?';

/**
 * The buttons that get a member out of unreadable colours (Save, Undo, each Reset) keep the default
 * colours' readable pair whatever is painted: a member may keep colours below AA, but never loses the
 * way back.
 */
export const READABLE_BUTTON = { background: DEFAULT_COLORS.menuColor, color: DEFAULT_COLORS.foregroundColor, borderColor: DEFAULT_COLORS.accentColor } as const;

/** Edits a draft that is painted on the site as you go; Save Colors stores it for the account. */
export function ColorSettings({ saved, clickToToggle }: Props) {
  const utils = trpc.useUtils();
  const [draft, setDraft] = useState<Colors>(saved);
  // Rotation always starts from the colours as they were when the slider was first touched.
  const [rotationBase, setRotationBase] = useState<Colors | null>(null);
  const [rotation, setRotation] = useState(0);
  const [message, setMessage] = useState<string | null>(null);
  const saveColors = trpc.settings.saveColors.useMutation({
    onSuccess: (colors) => {
      utils.settings.colors.setData(undefined, colors);
      setMessage('Colors saved.');
    },
  });
  const saveNavbar = trpc.settings.saveNavbarStyle.useMutation({
    onSuccess: (style) => utils.settings.navbarStyle.setData(undefined, style),
  });

  useEffect(() => applyColors(draft), [draft]);
  // Leaving without saving puts the saved colours back.
  useEffect(() => () => applyColors(utils.settings.colors.getData() ?? DEFAULT_COLORS), [utils]);

  const change = (next: Colors) => {
    setMessage(null);
    setDraft(next);
  };
  const pick = (key: ColorKey, value: string) => {
    setRotationBase(null);
    setRotation(0);
    change({ ...draft, [key]: value });
  };
  const rotate = (degrees: number) => {
    const base = rotationBase ?? draft;
    setRotationBase(base);
    setRotation(degrees);
    change(rotateAll(base, degrees));
  };
  const dirty = COLOR_KEYS.some((key) => draft[key] !== saved[key]);
  // Leaving with previewed, unsaved colours asks first.
  useAskBeforeLeaving(dirty, LEAVE_UNSAVED);

  return (
    <>
      <section className="card" aria-labelledby="colors-title">
        <h2 id="colors-title">Colors</h2>
        <ul className="color-list">
          {PICKER_ORDER.map((key) => (
            <li key={key} className="color-row">
              <label htmlFor={`color-${key}`}>{COLOR_LABELS[key]}</label>
              <input id={`color-${key}`} type="color" value={draft[key]} onChange={(event) => pick(key, event.target.value)} />
              <code className="color-code">{draft[key]}</code>
              {draft[key].toLowerCase() !== DEFAULT_COLORS[key].toLowerCase() ? (
                <button
                  type="button"
                  className="reset-arrow"
                  style={READABLE_BUTTON}
                  aria-label={`Reset ${COLOR_LABELS[key]} to default`}
                  title={`Reset to ${DEFAULT_COLORS[key]}`}
                  onClick={() => pick(key, DEFAULT_COLORS[key])}
                >
                  ↺
                </button>
              ) : (
                <span className="reset-placeholder" aria-hidden="true" />
              )}
            </li>
          ))}
        </ul>
        <div className="rotate-row">
          <label htmlFor="rotate-all">Rotate All Colors</label>
          <input
            id="rotate-all"
            type="range"
            min={0}
            max={359}
            step={1}
            value={rotation}
            aria-valuetext={`${rotation} degrees`}
            onChange={(event) => rotate(Number(event.target.value))}
            className="hue-slider"
          />
          <output htmlFor="rotate-all">{rotation}°</output>
        </div>
        <p className="small">Rotation turns the hue of every colour except links and errors.</p>
        <ContrastList
          colors={draft}
          onFix={(fix) => {
            setRotationBase(null);
            setRotation(0);
            change({ ...draft, ...fix });
          }}
        />
        <ErrorBubble message={saveColors.error ? saveColors.error.message : null} />
        <div className="link-row">
          <button type="button" className="button primary" style={READABLE_BUTTON} disabled={saveColors.isPending} onClick={() => saveColors.mutate(draft)}>
            {saveColors.isPending ? 'Saving...' : 'Save Colors'}
          </button>
          <button type="button" className="button" style={READABLE_BUTTON} disabled={!dirty} onClick={() => change(saved)}>
            Undo changes
          </button>
          {message && (
            <span role="status" className="saved-note">
              {message}
            </span>
          )}
        </div>
      </section>

      <section className="card" aria-labelledby="navbar-style-title">
        <h2 id="navbar-style-title">Navbar</h2>
        <div className="segmented" role="radiogroup" aria-labelledby="navbar-style-title">
          {[
            { value: false, label: 'Scroll to toggle navbar' },
            { value: true, label: 'Button to toggle navbar' },
          ].map((option) => (
            <button
              key={option.label}
              type="button"
              role="radio"
              aria-checked={clickToToggle === option.value}
              className={clickToToggle === option.value ? 'selected' : undefined}
              disabled={saveNavbar.isPending}
              onClick={() => saveNavbar.mutate({ clickToToggle: option.value })}
            >
              {option.label}
            </button>
          ))}
        </div>
        <ErrorBubble message={saveNavbar.error ? saveNavbar.error.message : null} />
      </section>
    </>
  );
}

export default function SettingsPage() {
  const colors = trpc.settings.colors.useQuery();
  const navbarStyle = trpc.settings.navbarStyle.useQuery();
  useEffect(() => {
    document.title = 'Settings';
  }, []);
  return (
    <main className="page settings-page">
      <header className="page-hero">
        <h1>Settings</h1>
        <p className="lead">Pick your own colours for the whole site. They are saved to your account.</p>
      </header>
      <LoadProblem query={colors} what="your colours" />
      <LoadProblem query={navbarStyle} what="your navbar setting" />
      {colors.data && navbarStyle.data && <ColorSettings saved={colors.data} clickToToggle={navbarStyle.data.clickToToggle} />}
    </main>
  );
}
