import { Link, isRouteErrorResponse, useRouteError } from 'react-router-dom';

function ErrorView({ title, status, statusText, message }: { title: string; status?: number; statusText?: string; message?: string }) {
  return (
    <main className="page narrow-page">
      <section className="card error-card" aria-labelledby="error-title">
        <h1 id="error-title">{title}</h1>
        {status !== undefined && (
          <p className="error-status">
            <strong>{status}</strong> {statusText}
          </p>
        )}
        {message && <p className="error-message">{message}</p>}
        <p>
          <Link to="/">Back to the start</Link>
        </p>
      </section>
    </main>
  );
}

/** Unknown addresses. */
export function NotFound() {
  return <ErrorView title="How did you get here" status={404} statusText="Not Found" message="There is no page at this address." />;
}

/** Whatever the router throws: its status, status text and message. */
export function RouterError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    const data: unknown = error.data;
    const message = typeof data === 'string' ? data : data instanceof Error ? data.message : undefined;
    return <ErrorView title="That's an error." status={error.status} statusText={error.statusText} {...(message ? { message } : {})} />;
  }
  const message = error instanceof Error ? error.message : String(error);
  return <ErrorView title="That's an error." message={message} />;
}
