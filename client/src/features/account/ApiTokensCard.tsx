import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { describeScopes, READ_ONLY_SCOPE, scopeAreas } from '@site/contracts/scopes';
import { CopyButton } from '../../components/CopyButton.tsx';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { TextInput } from '../../components/TextInput.tsx';
import { trpc } from '../../lib/trpc.ts';
import { ConfirmItIsYou, needsConfirming } from './ConfirmItIsYou.tsx';
import { CredentialsTable } from './CredentialsTable.tsx';
import './api-tokens.css';

type Rights = 'everything' | 'read' | 'areas';
type AreaRight = 'none' | 'read' | 'write';

/** The scopes of the form's choice: null for every right (contracts/src/scopes.ts). */
function scopesOf(rights: Rights, areas: Readonly<Record<string, AreaRight>>): string[] | null {
  if (rights === 'everything') return null;
  if (rights === 'read') return [READ_ONLY_SCOPE];
  return scopeAreas.flatMap((area) => {
    const right = areas[area] ?? 'none';
    return right === 'none' ? [] : right === 'read' ? [`${area}:read`] : [`${area}:read`, `${area}:write`];
  });
}

/** What a new token may do: everything, read only, or a choice of areas (each read, or read and write). */
function RightsChoice(props: { rights: Rights; onRights: (r: Rights) => void; areas: Record<string, AreaRight>; onArea: (area: string, right: AreaRight) => void }) {
  const { rights, onRights, areas, onArea } = props;
  const choices: [Rights, string][] = [
    ['everything', 'Everything (all your rights)'],
    ['read', 'Read only (every area)'],
    ['areas', 'Some areas'],
  ];
  return (
    <fieldset className="token-rights">
      <legend>What the token may do</legend>
      {choices.map(([value, label]) => (
        <label key={value} className="token-right">
          <input type="radio" name="tokenRights" value={value} checked={rights === value} onChange={() => onRights(value)} /> {label}
        </label>
      ))}
      {rights === 'areas' && (
        <div className="token-areas" role="group" aria-label="Areas">
          {scopeAreas.map((area) => (
            <label key={area} className="token-area">
              <span>{area}</span>
              <select value={areas[area] ?? 'none'} onChange={(event) => onArea(area, event.target.value as AreaRight)}>
                <option value="none">No</option>
                <option value="read">Read</option>
                <option value="write">Read and write</option>
              </select>
            </label>
          ))}
        </div>
      )}
    </fieldset>
  );
}

/** Personal API tokens for scripts and home automation: made with a label and scopes (shown once), listed, revoked. */
export function ApiTokensCard() {
  const tokens = trpc.auth.tokens.useQuery();
  const utils = trpc.useUtils();
  const [label, setLabel] = useState('');
  const [rights, setRights] = useState<Rights>('everything');
  const [areas, setAreas] = useState<Record<string, AreaRight>>({});
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const create = trpc.auth.createToken.useMutation({
    onMutate: () => setError(null),
    onSuccess: () => {
      setLabel('');
      void utils.auth.tokens.invalidate();
    },
    onError: (e) => (needsConfirming(e) ? setConfirming(true) : setError(e.message)),
  });
  const revoke = trpc.auth.revokeToken.useMutation({
    onMutate: () => setError(null),
    onSuccess: () => void utils.auth.tokens.invalidate(),
    onError: (e) => setError(e.message),
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ label, scopes: scopesOf(rights, areas) });
  };
  return (
    <section className="card" aria-labelledby="tokens-title">
      <h2 id="tokens-title">Personal API tokens</h2>
      <p>
        For scripts and home automation: send a token as the header <code>Authorization: Bearer TOKEN</code> to /trpc and /api. It acts with
        your level (or less: choose its areas), and can never change your password or make tokens. What each call takes and answers:{' '}
        <Link to="/personal/api">the API reference</Link>.
      </p>
      <form onSubmit={onSubmit} aria-label="New token" noValidate>
        <TextInput label="Label" name="tokenLabel" autoComplete="off" value={label} onValueChange={setLabel} />
        <RightsChoice rights={rights} onRights={setRights} areas={areas} onArea={(area, right) => setAreas((was) => ({ ...was, [area]: right }))} />
        <button type="submit" className="button" disabled={create.isPending}>
          Create token
        </button>
      </form>
      {confirming && (
        <ConfirmItIsYou
          onConfirmed={() => {
            setConfirming(false);
            create.mutate({ label, scopes: scopesOf(rights, areas) });
          }}
          onCancel={() => setConfirming(false)}
        />
      )}
      <ErrorBubble message={error} />
      {create.data && (
        <div className="confirm-box done-box" role="status" aria-label="New token">
          <p>
            The token for <strong>{create.data.label}</strong> ({describeScopes(create.data.scopes)}). Copy it now: it is shown only this once.
          </p>
          <CopyButton label="Token" text={create.data.token} alert="Token copied" />
        </div>
      )}
      <CredentialsTable
        query={tokens}
        what="tokens"
        name={{ label: 'Label', of: (t) => t.label }}
        createdLabel="Created"
        detail={{ label: 'Scopes', of: (t) => describeScopes(t.scopes) }}
        action={{ label: 'Revoke', run: (t) => revoke.mutate({ id: t.id }) }}
      />
    </section>
  );
}
