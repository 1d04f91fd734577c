import { useState, type FormEvent } from 'react';
import { PASSKEYS_MAX } from '@site/contracts/auth';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { TextInput } from '../../components/TextInput.tsx';
import { trpc } from '../../lib/trpc.ts';
import { ConfirmItIsYou, needsConfirming } from './ConfirmItIsYou.tsx';
import { CredentialsTable } from './CredentialsTable.tsx';
import { createPasskey, deviceName, passkeyErrorMessage } from './passkeys.ts';

/** Passkeys: sign in with this device's lock (fingerprint, face, PIN) instead of the password; added with a name, listed, removed. */
export function PasskeysCard() {
  const passkeys = trpc.auth.passkeys.useQuery();
  const utils = trpc.useUtils();
  const [name, setName] = useState(() => deviceName(typeof navigator === 'undefined' ? '' : navigator.userAgent));
  const [error, setError] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const options = trpc.auth.passkeyRegistrationOptions.useMutation();
  const add = trpc.auth.addPasskey.useMutation();
  const remove = trpc.auth.removePasskey.useMutation({
    onMutate: () => setError(null),
    onSuccess: () => void utils.auth.passkeys.invalidate(),
    onError: (e) => setError(e.message),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void addOne();
  };
  const addOne = async () => {
    setError(null);
    setAdded(null);
    if (name.trim() === '') {
      setError('Give the passkey a name');
      return;
    }
    setBusy(true);
    try {
      const optionsJSON = await options.mutateAsync();
      const response = await createPasskey(optionsJSON);
      const row = await add.mutateAsync({ name, response });
      setAdded(row.name);
      void utils.auth.passkeys.invalidate();
    } catch (e) {
      if (needsConfirming(e)) setConfirming(true);
      else setError(passkeyErrorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">Passkeys</h2>
      <p>
        A passkey signs you in with this device&apos;s screen lock (fingerprint, face or PIN) instead of your password. An account holds at most{' '}
        {PASSKEYS_MAX}.
      </p>
      <form onSubmit={onSubmit} aria-label="New passkey" noValidate>
        <TextInput label="Passkey name" name="passkeyName" autoComplete="off" value={name} onValueChange={setName} />
        <button type="submit" className="button" disabled={busy}>
          {busy ? 'Adding passkey...' : 'Add a passkey'}
        </button>
      </form>
      {confirming && (
        <ConfirmItIsYou
          onConfirmed={() => {
            setConfirming(false);
            void addOne();
          }}
          onCancel={() => setConfirming(false)}
        />
      )}
      <ErrorBubble message={error} />
      {added && (
        <p role="status">
          Passkey <strong>{added}</strong> added.
        </p>
      )}
      <CredentialsTable
        query={passkeys}
        what="passkeys"
        name={{ label: 'Name', of: (p) => p.name }}
        createdLabel="Added"
        action={{ label: 'Remove', run: (p) => remove.mutate({ id: p.id }) }}
      />
    </section>
  );
}
