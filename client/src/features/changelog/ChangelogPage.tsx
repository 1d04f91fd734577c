import { useEffect } from 'react';
import { Card } from '../../components/Card.tsx';
import { releases } from './changelog.ts';

export default function ChangelogPage() {
  useEffect(() => {
    document.title = 'Changelog';
  }, []);
  return (
    <main className="page changelog-page">
      <header className="page-hero">
        <h1>Changelog</h1>
        <p className="lead">What changed on the site, newest first.</p>
      </header>
      <div className="card-stack">
        {releases.map((release) => (
          <Card key={release.version} id={`v${release.version.replaceAll('.', '-')}`} title={`Version ${release.version}`} subtitle={release.title}>
            <ul>
              {release.changes.map((change) => (
                <li key={change}>{change}</li>
              ))}
            </ul>
          </Card>
        ))}
      </div>
    </main>
  );
}
