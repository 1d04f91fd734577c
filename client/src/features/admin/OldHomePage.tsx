import { useEffect } from 'react';
import { Card } from '../../components/Card.tsx';
import { owner } from '../../owner.config.ts';

/** The site's first homepage, kept for the owner: an overview and a biography. */
export default function OldHomePage() {
  useEffect(() => {
    document.title = 'Old Home';
  }, []);
  return (
    <main className="page">
      <header className="page-hero">
        <h1>{owner.siteTitle}</h1>
        <p className="lead">The old homepage.</p>
      </header>
      <div className="card-stack">
        <Card id="site-overview" title="Site overview">
          {owner.oldHome.overview.map((text) => (
            <p key={text}>{text}</p>
          ))}
        </Card>
        <Card id="biography" title="Biography">
          {owner.oldHome.biography.map((text) => (
            <p key={text}>{text}</p>
          ))}
        </Card>
      </div>
    </main>
  );
}
