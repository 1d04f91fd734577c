import type { ComponentType } from 'react';
import { Link } from 'react-router-dom';

/** The page of a hub tool that has not been written yet: says so plainly instead of pretending. */
export function notBuiltPage(label: string): ComponentType {
  return function NotBuiltPage() {
    return (
      <main className="page narrow-page">
        <section className="card" aria-labelledby="not-built-title">
          <h1 id="not-built-title">{label}</h1>
          <p className="not-built">This tool is not built yet.</p>
          <p>It is listed in the hub so you know it is coming. Nothing on this page works yet, and nothing you do here is saved.</p>
          <p>
            <Link to="/personal">Back to the hub</Link>
          </p>
        </section>
      </main>
    );
  };
}
