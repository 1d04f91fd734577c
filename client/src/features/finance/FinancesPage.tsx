import { useEffect, useId, useState } from 'react';
import { formatUsd, type CharityEntry } from '@site/contracts/finance';
import { LoadedTable } from '../../components/LoadedTable.tsx';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { trpc } from '../../lib/trpc.ts';
import { CharityForm, type CharitySubmit } from './CharityForm.tsx';
import { DocumentViewer } from './DocumentViewer.tsx';
import { saveWithDocumentation } from './documents.ts';
import './finance.css';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The charity finances of one year: the gifts, their totals, documentation, and the form to add more. */
export default function FinancesPage() {
  const [year, setYear] = useState(() => new Date().getFullYear());
  const list = trpc.finance.list.useQuery({ year });
  const overview = trpc.finance.overview.useQuery({ year });
  const utils = trpc.useUtils();
  const [editing, setEditing] = useState<CharityEntry | null>(null);
  const [viewing, setViewing] = useState<CharityEntry | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [tableError, setTableError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Documentation URLs change when a file is replaced, so the browser does not show the old one.
  const [version, setVersion] = useState(() => Date.now());
  const yearId = useId();

  const add = trpc.finance.add.useMutation();
  const update = trpc.finance.update.useMutation();
  const remove = trpc.finance.remove.useMutation();
  const removeDocumentation = trpc.finance.removeDocumentation.useMutation();

  useEffect(() => {
    document.title = 'Finance';
  }, []);

  const refresh = async () => {
    setVersion(Date.now());
    await Promise.all([utils.finance.list.invalidate(), utils.finance.overview.invalidate()]);
  };

  const onSubmit = async ({ draft, file, removeDocumentation: dropDoc }: CharitySubmit): Promise<boolean> => {
    setFormError(null);
    setNotice(null);
    setBusy(true);
    try {
      // With a file, the entry and the file go in one request: a refused file saves neither.
      const entry = file
        ? await saveWithDocumentation(editing?.id ?? null, draft, file)
        : editing
          ? await update.mutateAsync({ id: editing.id, ...draft })
          : await add.mutateAsync(draft);
      if (!file && dropDoc) await removeDocumentation.mutateAsync({ id: entry.id });
      setEditing(null);
      setYear(Number(entry.date.slice(0, 4)));
      setNotice(editing ? 'Entry saved.' : 'Entry added.');
      await refresh();
      return true;
    } catch (error) {
      setFormError(message(error));
      return false;
    } finally {
      setBusy(false);
    }
  };

  const onDelete = async (entry: CharityEntry) => {
    if (!window.confirm(`Delete the entry for ${entry.recipient} on ${entry.date}? Its documentation goes too.`)) return;
    setTableError(null);
    try {
      await remove.mutateAsync({ id: entry.id });
      if (editing?.id === entry.id) setEditing(null);
      setNotice('Entry deleted.');
      await refresh();
    } catch (error) {
      setTableError(message(error));
    }
  };

  const years = overview.data?.years ?? [year];
  const totals = overview.data?.totals;
  const entries = list.data ?? [];

  return (
    <main className="page finance-page">
      <header className="page-hero">
        <h1>Finance</h1>
        <p className="lead">Charitable giving by year, with the documentation for each gift.</p>
      </header>

      <section className="card finance-summary" aria-labelledby="finance-year-title">
        <div className="finance-year">
          <h2 id="finance-year-title">Year</h2>
          <label htmlFor={yearId} className="visually-hidden">
            Year
          </label>
          <select id={yearId} value={year} onChange={(e) => setYear(Number(e.target.value))}>
            {years.map((y) => (
              <option key={y} value={y}>
                {y}
              </option>
            ))}
          </select>
          <a className="button" href={`/private/finance/export/${year}`} download={`charity-${year}.csv`}>
            Export {year} as CSV
          </a>
        </div>
        <div className="finance-totals" aria-labelledby="finance-totals-title">
          <h2 id="finance-totals-title">Income/Expense</h2>
          <dl>
            <div>
              <dt>All gifts</dt>
              <dd data-testid="total-all">{totals ? formatUsd(totals.allCents) : '...'}</dd>
            </div>
            <div>
              <dt>Charitable gifts (for taxes)</dt>
              <dd data-testid="total-charitable">{totals ? formatUsd(totals.charitableCents) : '...'}</dd>
            </div>
            <div>
              <dt>Entries</dt>
              <dd data-testid="total-count">{totals ? totals.count : '...'}</dd>
            </div>
          </dl>
        </div>
      </section>

      <section className="card" aria-labelledby="gifts-title">
        <h2 id="gifts-title">Gifts in {year}</h2>
        {notice && (
          <p className="saved-note" role="status">
            {notice}
          </p>
        )}
        <ErrorBubble message={tableError} />
        <LoadedTable
          query={list}
          what="the entries"
          loading="Loading entries..."
          empty={<>No entries in {year}.</>}
          className="finance-table"
          rows={entries}
          rowKey={(entry) => entry.id}
          columns={[
            { label: 'Charitable', cell: (entry) => (entry.charitable ? 'Yes' : 'No') },
            { label: 'Recipient', cell: (entry) => entry.recipient },
            { label: 'Value in USD', className: 'finance-money', cell: (entry) => (entry.valueCents === null ? '' : formatUsd(entry.valueCents)) },
            { label: 'Item', cell: (entry) => entry.item },
            { label: 'Date', className: 'finance-date', cell: (entry) => entry.date },
            {
              label: 'Documentation',
              cell: (entry) =>
                    entry.hasDocumentation ? (
                      <button type="button" className="button small" onClick={() => setViewing(entry)} aria-label={`View documentation for ${entry.recipient}`}>
                        View
                      </button>
                    ) : (
                      <span className="finance-none">None</span>
                    ),
            },
            {
              label: 'Actions',
              hideLabel: true,
              className: 'finance-actions',
              cell: (entry) => (
                    <div>
                      <button
                        type="button"
                        className="button small"
                        aria-label={`Edit the entry for ${entry.recipient}`}
                        onClick={() => {
                          setFormError(null);
                          setEditing(entry);
                          document.getElementById('charity-form-title')?.scrollIntoView({ behavior: 'smooth' });
                        }}
                      >
                        Edit
                      </button>
                      <button type="button" className="button small" aria-label={`Delete the entry for ${entry.recipient}`} onClick={() => void onDelete(entry)}>
                        Delete
                      </button>
                    </div>
              ),
            },
          ]}
        />
      </section>

      <CharityForm
        key={editing ? `edit-${editing.id}` : 'add'}
        editing={editing}
        busy={busy}
        serverError={formError}
        onSubmit={onSubmit}
        onRefused={() => setNotice(null)}
        onCancelEdit={() => {
          setEditing(null);
          setFormError(null);
        }}
      />

      {viewing && <DocumentViewer entry={viewing} version={version} onClose={() => setViewing(null)} />}
    </main>
  );
}
