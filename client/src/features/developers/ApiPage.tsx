import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { OPENAPI_PATH } from '@site/contracts/developers';
import { ErrorBubble } from '../../components/ErrorBubble.tsx';
import { answerSchemaOf, entriesByArea, examplesOf, inputSchemaOf, levelText, requestOf, sampleOf, triable, type Entry, type OpenApiDocument } from './openapi-view.ts';
import './developers.css';

async function loadDocument(): Promise<OpenApiDocument> {
  const answer = await fetch(OPENAPI_PATH, { credentials: 'same-origin' });
  const body = (await answer.json()) as OpenApiDocument | { message: string };
  if (!answer.ok) throw new Error('message' in body ? body.message : `The document did not load (${answer.status})`);
  return body as OpenApiDocument;
}

/** A description with `code` spans. */
function Prose({ text }: { text: string }) {
  return (
    <p>
      {text.split('`').map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}
    </p>
  );
}

/** A block of code or JSON; it scrolls when long, so it takes the keyboard's focus too. */
function Code({ children }: { children: string }) {
  return (
    // Focusable: a region that scrolls must be reachable by keyboard (axe: scrollable-region-focusable).
    <pre className="api-code" tabIndex={0}>
      {children}
    </pre>
  );
}

function Badge({ children, kind }: { children: ReactNode; kind: string }) {
  return <span className={`api-badge api-badge-${kind}`}>{children}</span>;
}

/** "Try it": sends the call with the member's own session and shows the answer as it came. */
function TryIt({ entry, input, onInput }: { entry: Entry; input: string; onInput: (text: string) => void }) {
  const [answer, setAnswer] = useState<{ status: number; text: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const hasInput = inputSchemaOf(entry.op) !== null;
  const send = async () => {
    setError(null);
    let value: unknown;
    if (hasInput && input.trim() !== '') {
      try {
        value = JSON.parse(input);
      } catch {
        setError('The input is not valid JSON');
        return;
      }
    }
    const request = requestOf(entry, value);
    setSending(true);
    try {
      const response = await fetch(request.url, {
        method: request.method,
        credentials: 'same-origin',
        ...(request.body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: request.body }),
      });
      const text = await response.text();
      let shown = text;
      try {
        shown = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        // Not JSON: shown as it came.
      }
      setAnswer({ status: response.status, text: shown });
    } catch {
      setError('The server did not answer');
    } finally {
      setSending(false);
    }
  };
  const id = `try-${entry.op.operationId.replace(/[^A-Za-z0-9]/g, '-')}`;
  return (
    <div className="api-try">
      <h4>Try it (as you, with this browser's session)</h4>
      {hasInput && (
        <label htmlFor={`${id}-input`} className="api-try-label">
          Input (JSON)
          <textarea id={`${id}-input`} value={input} onChange={(event) => onInput(event.target.value)} rows={Math.min(8, input.split('\n').length + 1)} spellCheck={false} />
        </label>
      )}
      <button type="button" className="button primary" onClick={() => void send()} disabled={sending}>
        Send {entry.op['x-procedure-type'] === 'query' ? 'GET' : entry.method}
      </button>
      <ErrorBubble message={error} />
      {answer && (
        <div role="status" aria-label={`Answer of ${entry.op.operationId}`}>
          <p>
            Status <strong>{answer.status}</strong>
          </p>
          <Code>{answer.text}</Code>
        </div>
      )}
    </div>
  );
}

/** What a call answers: the schema of its answer, then the envelope around it and the refusals. */
function AnswerView({ entry, doc }: { entry: Entry; doc: OpenApiDocument }) {
  const answer = answerSchemaOf(entry, doc);
  const procedure = entry.path.startsWith('/trpc/');
  return (
    <>
      {answer === 'nothing' ? (
        <p>
          Nothing: <code>{'{ "result": {} }'}</code>.
        </p>
      ) : answer === null ? (
        <p>Not JSON (a file or a page).</p>
      ) : (
        <>
          <p>{procedure ? <>Its <code>data</code>, as this JSON Schema says (no other fields):</> : <>This JSON (no other fields):</>}</p>
          <Code>{JSON.stringify(answer, null, 2)}</Code>
        </>
      )}
      <p>
        {procedure ? (
          <>
            Sent as <code>{'{ "result": { "data": ... } }'}</code>, or on a refusal <code>{'{ "error": { "message", "code", "data": { "code", "httpStatus", "path" } } }'}</code> with the
            status of <code>data.httpStatus</code>.
          </>
        ) : (
          <>
            On a refusal <code>{'{ "message" }'}</code> with its status.
          </>
        )}
      </p>
    </>
  );
}

function OperationView({ entry, doc }: { entry: Entry; doc: OpenApiDocument }) {
  const { op } = entry;
  const schema = inputSchemaOf(op);
  const [input, setInput] = useState(() => (schema ? JSON.stringify(sampleOf(schema), null, 2) : ''));
  const [open, setOpen] = useState(false);
  const parsed = useMemo(() => {
    if (!schema) return undefined;
    try {
      return JSON.parse(input) as unknown;
    } catch {
      return sampleOf(schema);
    }
  }, [input, schema]);
  const examples = open ? examplesOf(entry, parsed, window.location.origin) : null;
  const method = op['x-procedure-type'] === 'query' ? 'GET' : entry.method;
  return (
    <details className="api-op" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>
        <Badge kind={method.toLowerCase()}>{method}</Badge>
        <code className="api-op-name">{op.operationId.startsWith(`${entry.method} `) ? entry.path : op.operationId}</code>
        <span className="api-op-facts">
          {op['x-min-level'] !== undefined && <Badge kind="level">{levelText(op['x-min-level'])}</Badge>}
          {op['x-browser-only'] ? <Badge kind="browser">Browser only</Badge> : op['x-scope'] && <Badge kind="scope">{op['x-scope']}</Badge>}
        </span>
      </summary>
      {open && (
        <div className="api-op-body">
          {op.description && <Prose text={op.description} />}
          <p>
            <code>
              {method} {entry.path}
            </code>
          </p>
          <h4>Input</h4>
          {schema ? <Code>{JSON.stringify(schema, null, 2)}</Code> : <p>None.</p>}
          <h4>Answer</h4>
          <AnswerView entry={entry} doc={doc} />
          {triable(entry) && <TryIt entry={entry} input={input} onInput={setInput} />}
          {examples && (
            <div className="api-examples">
              <h4>curl</h4>
              <Code>{examples.curl}</Code>
              <h4>Python (requests)</h4>
              <Code>{examples.python}</Code>
              <h4>TypeScript</h4>
              <Code>{examples.typescript}</Code>
            </div>
          )}
        </div>
      )}
    </details>
  );
}

/** The site's API, read from its own OpenAPI document: each area's calls, their level and scope, input, "Try it" and examples. */
export default function ApiPage() {
  const doc = useQuery({ queryKey: ['openapi'], queryFn: loadDocument, staleTime: Infinity });
  const [filter, setFilter] = useState('');
  useEffect(() => {
    document.title = 'API reference';
  }, []);
  const loaded = doc.data;
  const areas = useMemo(() => (loaded ? entriesByArea(loaded) : new Map<string, Entry[]>()), [loaded]);
  const needle = filter.trim().toLowerCase();
  const shown = [...areas.entries()]
    .map(([area, entries]) => [area, needle === '' ? entries : entries.filter((e) => `${e.op.operationId} ${e.path} ${area}`.toLowerCase().includes(needle))] as const)
    .filter(([, entries]) => entries.length > 0);
  return (
    <main className="page api-page">
      <header className="page-hero">
        <h1>API reference</h1>
        <p className="lead">Every call a script can make, generated from the server itself.</p>
      </header>
      <section className="card" aria-labelledby="api-how-title">
        <h2 id="api-how-title">How to call</h2>
        <p>
          Make a token on the <Link to="/personal/account">Account page</Link> (every right, read only or some areas) and send it as{' '}
          <code>Authorization: Bearer TOKEN</code>.
        </p>
        <p>
          A query is <code>GET /trpc/NAME?input=JSON</code>, a mutation <code>POST /trpc/NAME</code> with a JSON body. The whole document:{' '}
          <a href={OPENAPI_PATH}>{OPENAPI_PATH}</a> (OpenAPI 3.1). TypeScript scripts can use the typed client <code>createSiteClient</code> of the{' '}
          <code>sdk/</code> package.
        </p>
        <label className="api-filter">
          Find a call
          <input type="search" value={filter} onChange={(event) => setFilter(event.target.value)} placeholder="todo.add" />
        </label>
      </section>
      {doc.isPending && <p role="status">Loading the API document...</p>}
      <ErrorBubble message={doc.error ? doc.error.message : null} />
      {loaded && shown.map(([area, entries]) => (
        <section key={area} className="card api-area" aria-labelledby={`api-area-${area}`}>
          <h2 id={`api-area-${area}`}>{area === 'api' ? '/api paths' : area === 'http' ? 'Other HTTP routes' : area}</h2>
          {entries.map((entry) => (
            <OperationView key={`${entry.method} ${entry.path}`} entry={entry} doc={loaded} />
          ))}
        </section>
      ))}
      {doc.data && shown.length === 0 && <p>No call matches.</p>}
    </main>
  );
}
