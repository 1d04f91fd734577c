import { useState, type FormEvent } from 'react';
import { CopyButton } from '../../components/CopyButton.tsx';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { TextInput } from '../../components/TextInput.tsx';
import { trpc } from '../../lib/trpc.ts';
import { ConfirmItIsYou, needsConfirming } from './ConfirmItIsYou.tsx';
import { CredentialsTable } from './CredentialsTable.tsx';

/** Personal API tokens for scripts and home automation: made with a label (shown once), listed, revoked. */
export function ApiTokensCard() {
  const tokens = trpc.auth.tokens.useQuery();
  const utils = trpc.useUtils();
  const [label, setLabel] = useState('');
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
    create.mutate({ label });
  };
  return (
    <section className="card" aria-labelledby="tokens-title">
      <h2 id="tokens-title">Personal API tokens</h2>
      <p>
        For scripts and home automation: send a token as the header <code>Authorization: Bearer TOKEN</code> to /trpc and /api. It acts with
        your level, and can never change your password or make tokens.
      </p>
      <form onSubmit={onSubmit} aria-label="New token" noValidate>
        <TextInput label="Label" name="tokenLabel" autoComplete="off" value={label} onValueChange={setLabel} />
        <button type="submit" className="button" disabled={create.isPending}>
          Create token
        </button>
      </form>
      {confirming && (
        <ConfirmItIsYou
          onConfirmed={() => {
            setConfirming(false);
            create.mutate({ label });
          }}
          onCancel={() => setConfirming(false)}
        />
      )}
      <ErrorBubble message={error} />
      {create.data && (
        <div className="confirm-box done-box" role="status" aria-label="New token">
          <p>
            The token for <strong>{create.data.label}</strong>. Copy it now: it is shown only this once.
          </p>
          <CopyButton label="Token" text={create.data.token} alert="Token copied" />
        </div>
      )}
      <CredentialsTable
        query={tokens}
        what="tokens"
        name={{ label: 'Label', of: (t) => t.label }}
        createdLabel="Created"
        action={{ label: 'Revoke', run: (t) => revoke.mutate({ id: t.id }) }}
      />
    </section>
  );
}
