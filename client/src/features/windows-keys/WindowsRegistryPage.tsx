import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  FIRMWARE_KEY_COMMANDS,
  MASKED_KEY,
  WINDOWS_KEY_STATUSES,
  claimChange,
  formatKey,
  registrationErrors,
  windowsKeyMessages,
  type WindowsKey,
} from '@site/contracts/windows-keys';
import { LoadedTable } from '../../components/LoadedTable.tsx';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { TextInput } from '../../components/TextInput.tsx';
import { copyAndAlert } from '../../lib/clipboard.ts';
import { trpc } from '../../lib/trpc.ts';
import './windows-keys.css';

/** The Register Key form: the key is formatted as it is typed; errors show in the error colour. */
function RegisterKey({ changes }: { changes: number }) {
  const utils = trpc.useUtils();
  const [key, setKey] = useState('');
  const [status, setStatus] = useState('');
  const [location, setLocation] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const add = trpc.windowsKeys.add.useMutation({
    onSuccess: () => {
      setKey('');
      setStatus('');
      setLocation('');
      void utils.windowsKeys.list.invalidate();
    },
  });
  const { reset } = add;
  // The server's refusal ("That key is already registered") answers one try: it leaves when the next action on the page succeeds.
  const seenChanges = useRef(changes);
  useEffect(() => {
    if (seenChanges.current === changes) return;
    seenChanges.current = changes;
    reset();
  }, [changes, reset]);
  // Once shown, the messages follow the fields: each leaves when what it asks for is done, and the
  // server's refusal leaves with the first edit (it was about the key as it was sent).
  const recheck = (next: { key?: string; status?: string; location?: string }) => {
    reset();
    if (errors.length > 0) setErrors(registrationErrors({ key, status, location, ...next }));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = registrationErrors({ key, status, location });
    setErrors(found);
    if (found.length === 0) add.mutate({ key, status, location });
  };
  return (
    <section className="card" aria-labelledby="register-title">
      <h2 id="register-title">Register Key</h2>
      <form onSubmit={submit} className="register-form" noValidate>
        <TextInput
          label="Key"
          value={key}
          onValueChange={(value) => {
            setKey(formatKey(value));
            recheck({ key: formatKey(value) });
          }}
          placeholder="XXXXX-XXXXX-XXXXX-XXXXX-XXXXX"
          autoComplete="off"
          spellCheck={false}
          className="register-key"
        />
        <div className="field">
          <label htmlFor="register-status">Status</label>
          <select
            id="register-status"
            value={status}
            onChange={(event) => {
              setStatus(event.target.value);
              recheck({ status: event.target.value });
            }}
          >
            <option value="">{'\u00a0'}</option>
            {WINDOWS_KEY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <TextInput
          label="Location"
          value={location}
          onValueChange={(value) => {
            setLocation(value);
            recheck({ location: value });
          }}
          maxLength={100}
        />
        <button type="submit" className="button primary" disabled={add.isPending}>
          Register
        </button>
      </form>
      <div aria-live="assertive" className="register-errors">
        {errors.map((message) => (
          <p key={message} className="error-text">
            {message}
          </p>
        ))}
      </div>
      <ErrorBubble message={add.error ? add.error.message : null} />
    </section>
  );
}

export default function WindowsRegistryPage() {
  const keys = trpc.windowsKeys.list.useQuery();
  const utils = trpc.useUtils();
  // Each successful change in the table: the Register form's last refusal is old news then.
  const [changes, setChanges] = useState(0);
  const update = trpc.windowsKeys.update.useMutation({
    onSuccess: () => setChanges((n) => n + 1),
    onError: (error) => window.alert(error.message),
    onSettled: () => void utils.windowsKeys.list.invalidate(),
  });
  useEffect(() => {
    document.title = 'Windows Keys';
  }, []);

  const release = (row: WindowsKey) => {
    if (window.confirm(windowsKeyMessages.releaseConfirm)) update.mutate({ key: row.key, location: row.location, status: 'Inactive' });
  };
  const claim = (row: WindowsKey) => {
    const change = claimChange(window.prompt(windowsKeyMessages.claimPrompt, ''));
    if (change) update.mutate({ key: row.key, ...change });
  };

  return (
    <main className="page windows-page">
      <header className="page-hero">
        <h1>Windows Keys</h1>
        <p className="lead">
          The household’s Windows licence keys and where each one is in use. Release a key when its machine is retired or reinstalled with
          another key; claim a free key for the machine it goes on. Active keys stay hidden.
        </p>
      </header>
      <section className="card" aria-labelledby="keys-title">
        <h2 id="keys-title">Keys</h2>
        <LoadedTable
          query={keys}
          what="the keys"
          loading="Loading keys..."
          empty="No keys are registered yet."
          className="keys-table"
          rowKey={(row) => row.key}
          columns={[
            {
              label: 'Action',
              cell: (row) =>
                    row.status === 'Active' ? (
                      <button type="button" className="button" disabled={update.isPending} aria-label={`Release the key at ${row.location}`} onClick={() => release(row)}>
                        Release
                      </button>
                    ) : (
                      <button type="button" className="button" disabled={update.isPending} aria-label={`Claim ${row.key}`} onClick={() => claim(row)}>
                        Claim
                      </button>
                    ),
            },
            { label: 'Key', cell: (row) => <code className="key-text">{row.status === 'Active' ? MASKED_KEY : row.key}</code> },
            { label: 'Status', cell: (row) => row.status },
            { label: 'Location', className: 'key-location', cell: (row) => row.location },
          ]}
        />
      </section>
      <RegisterKey changes={changes} />
      <section className="card" aria-labelledby="commands-title">
        <h2 id="commands-title">Reading a key from the firmware</h2>
        <p>Many computers carry their key in the firmware. Copy the command for the system the machine runs and paste it into a terminal.</p>
        <div className="link-row">
          <button type="button" className="button" onClick={() => void copyAndAlert(FIRMWARE_KEY_COMMANDS.linux, 'Linux command copied to clipboard')}>
            Copy Linux command
          </button>
          <button type="button" className="button" onClick={() => void copyAndAlert(FIRMWARE_KEY_COMMANDS.windows, 'Windows command copied to clipboard')}>
            Copy Windows command
          </button>
        </div>
      </section>
    </main>
  );
}
