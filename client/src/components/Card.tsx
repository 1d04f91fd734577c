import type { ReactNode } from 'react';

export function Card({ id, title, subtitle, children, className }: { id?: string; title: ReactNode; subtitle?: string; children: ReactNode; className?: string }) {
  return (
    <section className={`card${className ? ` ${className}` : ''}`} id={id} aria-labelledby={id ? `${id}-title` : undefined}>
      <header className="card-header">
        <h2 id={id ? `${id}-title` : undefined}>{title}</h2>
        {subtitle && <p className="card-subtitle">{subtitle}</p>}
      </header>
      <div className="card-body">{children}</div>
    </section>
  );
}
