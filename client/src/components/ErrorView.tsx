import { Link } from 'react-router-dom';

/** An error page: its title, the HTTP status when there is one, a message and the way back. */
export function ErrorView({ title, status, statusText, message }: { title: string; status?: number; statusText?: string; message?: string }) {
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
