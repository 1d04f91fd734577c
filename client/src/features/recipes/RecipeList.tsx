import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { ImportReportEntry } from '@site/contracts/recipes';
import { Link, useNavigate } from 'react-router-dom';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { TextInput } from '../../components/TextInput.tsx';
import { trpc } from '../../lib/trpc.ts';
import { RECIPES_HOME, useCanAuthor, useRecipeSettings, viewHref } from './recipe-data.ts';
import { LoadProblem } from '../../components/Loaded.tsx';
import { useSettled } from '../../lib/use-settled.ts';

/** Several files or .zip archives in one upload: the server imports each and answers a report per file. */
async function importMany(files: File[]): Promise<ImportReportEntry[]> {
  const body = new FormData();
  for (const file of files) body.append('files', file, file.name);
  const res = await fetch('/private/recipes/import', { method: 'POST', body, credentials: 'same-origin' });
  const answer = (await res.json().catch(() => ({}))) as { report?: ImportReportEntry[]; message?: string };
  if (!res.ok || !answer.report) throw new Error(answer.message ?? `Import failed (${res.status})`);
  return answer.report;
}

function ImportReport({ report, view }: { report: ImportReportEntry[]; view: Parameters<typeof viewHref>[0] }) {
  const imported = report.filter((entry) => entry.ok).length;
  const skipped = report.filter((entry) => !entry.ok && entry.skipped).length;
  return (
    <section className="import-report" aria-label="Import report">
      <p role="status">
        {imported} imported, {report.length - imported - skipped} refused{skipped > 0 && `, ${skipped} skipped`}
      </p>
      <ul>
        {report.map((entry, i) => (
          <li key={i} className={entry.ok ? 'imported' : entry.skipped ? 'skipped' : 'refused'}>
            <span className="import-file">{entry.file}</span>:{' '}
            {entry.ok ? (
              <>
                imported as <Link to={viewHref(view, entry.recipe_id)}>{entry.title}</Link>
              </>
            ) : entry.skipped ? (
              <>{entry.message}</>
            ) : (
              <>refused: {entry.message}</>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A link imported before: nothing was imported; open that recipe, or import the page again as a copy. */
function AlreadyImported({ recipe, view, onCopy, copying }: { recipe: { recipe_id: number; title: string }; view: Parameters<typeof viewHref>[0]; onCopy: () => void; copying: boolean }) {
  return (
    <section className="import-report" aria-label="Already imported">
      <p role="status">That page is already imported as “{recipe.title}”.</p>
      <div className="link-row">
        <Link className="button primary" to={viewHref(view, recipe.recipe_id)}>
          Open it
        </Link>
        <button type="button" className="button" onClick={onCopy} disabled={copying}>
          {copying ? 'Importing...' : 'Import again as a copy'}
        </button>
      </div>
    </section>
  );
}

/** Every recipe as 'title - author - uploaded date', opening in the member's default view. */
export function RecipeList() {
  const [search, setSearch] = useState('');
  const query = useSettled(search.trim(), 250);
  const list = trpc.recipes.list.useQuery(query ? { search: query } : undefined, { placeholderData: (previous) => previous });
  const { settings } = useRecipeSettings();
  const canAuthor = useCanAuthor();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const fileInput = useRef<HTMLInputElement>(null);
  const [importError, setImportError] = useState<string | null>(null);
  const [link, setLink] = useState('');
  const [report, setReport] = useState<ImportReportEntry[] | null>(null);
  const [already, setAlready] = useState<{ recipe_id: number; title: string } | null>(null);
  const [uploading, setUploading] = useState(false);
  const opened = {
    onSuccess: async ({ recipe_id }: { recipe_id: number }) => {
      await utils.recipes.list.invalidate();
      void navigate(viewHref('page', recipe_id));
    },
    onError: (e: { message: string }) => setImportError(e.message),
  };
  const importLink = trpc.recipes.importUrl.useMutation({
    onSuccess: async (answer) => {
      if (answer.alreadyImported) setAlready(answer);
      else await opened.onSuccess(answer);
    },
    onError: opened.onError,
  });
  useEffect(() => {
    document.title = 'Recipes';
  }, []);

  /** One file that imports opens the new recipe; several, a .zip, or a refusal end with a report per file. */
  const onFiles = async (files: File[]) => {
    setImportError(null);
    setReport(null);
    setAlready(null);
    if (files.length === 0) return;
    setUploading(true);
    try {
      const answer = await importMany(files);
      const [only] = answer;
      if (answer.length === 1 && only?.ok) await opened.onSuccess(only);
      else {
        setReport(answer);
        await utils.recipes.list.invalidate();
      }
    } catch (error) {
      setImportError((error as Error).message);
    } finally {
      setUploading(false);
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  const onLink = (event: FormEvent) => {
    event.preventDefault();
    setImportError(null);
    setReport(null);
    setAlready(null);
    importLink.mutate({ url: link });
  };

  return (
    <main className="page recipe-list-page">
      <header className="page-hero">
        <h1>Recipes</h1>
        <nav className="link-row" aria-label="Recipe tools">
          {canAuthor && (
            <Link className="button primary" to={`${RECIPES_HOME}/new`}>
              New recipe
            </Link>
          )}
          <Link className="button" to={`${RECIPES_HOME}/settings`}>
            Settings
          </Link>
          {canAuthor && (
            <label className="button file-button">
              {uploading ? 'Importing...' : 'Import JSON-LD'}
              <input
                ref={fileInput}
                type="file"
                multiple
                accept=".json,.jsonld,.zip,.html,.htm,application/ld+json,application/json,application/zip"
                className="visually-hidden"
                onChange={(event) => void onFiles([...(event.target.files ?? [])])}
              />
            </label>
          )}
        </nav>
        {canAuthor && (
          <form className="recipe-link-import" onSubmit={onLink} noValidate>
            <TextInput label="Import from link" type="url" placeholder="https://" value={link} onValueChange={setLink} autoComplete="off" />
            <button type="submit" className="button" disabled={importLink.isPending || link.trim() === ''}>
              {importLink.isPending ? 'Importing...' : 'Import'}
            </button>
          </form>
        )}
        <ErrorBubble message={importError} />
        {report && <ImportReport report={report} view={settings.defaultView} />}
        {already && (
          <AlreadyImported
            recipe={already}
            view={settings.defaultView}
            copying={importLink.isPending}
            onCopy={() => {
              setAlready(null);
              importLink.mutate({ url: link, copy: true });
            }}
          />
        )}
      </header>
      <section className="card" aria-labelledby="recipe-list-title">
        <h2 id="recipe-list-title" className="visually-hidden">
          All recipes
        </h2>
        <TextInput label="Search titles and ingredients" type="search" value={search} onValueChange={setSearch} autoComplete="off" />
        <LoadProblem query={list} what="the recipes" />
        {list.data && list.data.length === 0 && <p className="small">{query ? 'No recipe matches.' : 'No recipes yet.'}</p>}
        <ul className="recipe-list">
          {list.data?.map((recipe) => (
            <li key={recipe.recipe_id}>
              <Link to={viewHref(settings.defaultView, recipe.recipe_id)}>
                {[recipe.title, recipe.author, recipe.uploaded_date].filter(Boolean).join(' - ')}
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </main>
  );
}
