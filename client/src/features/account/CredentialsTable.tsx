import { LoadedTable } from '../../components/LoadedTable.tsx';
import type { LoadedQuery } from '../../components/Loaded.tsx';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : 'Never');

type Credential = { id: number; createdAt: string; lastUsedAt: string | null };

/**
 * The list of a sign-in credential the account card makes (API tokens, passkeys): its name, when it
 * was made and last used, and a button that takes it away.
 */
export function CredentialsTable<T extends Credential>(props: {
  query: LoadedQuery<T[]>;
  /** Plural noun: "tokens", "passkeys". */
  what: string;
  name: { label: string; of: (row: T) => string };
  createdLabel: string;
  /** A column after the name (a token's scopes). */
  detail?: { label: string; of: (row: T) => string };
  /** The button's word ("Revoke", "Remove") and what it does. */
  action: { label: string; run: (row: T) => void };
}) {
  const { query, what, name, createdLabel, detail, action } = props;
  return (
    <LoadedTable
      query={query}
      what={`the ${what}`}
      loading={`Loading ${what}...`}
      empty={<>No {what} yet.</>}
      rowKey={(row) => row.id}
      columns={[
        { label: name.label, cell: name.of },
        ...(detail ? [{ label: detail.label, cell: detail.of }] : []),
        { label: createdLabel, cell: (row) => when(row.createdAt) },
        { label: 'Last use', cell: (row) => when(row.lastUsedAt) },
        {
          label: action.label,
          hideLabel: true,
          cell: (row) => (
            <button type="button" className="button" aria-label={`${action.label} ${name.of(row)}`} onClick={() => action.run(row)}>
              {action.label}
            </button>
          ),
        },
      ]}
    />
  );
}
