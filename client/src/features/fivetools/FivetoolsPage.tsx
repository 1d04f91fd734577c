import { useEffect } from 'react';
import { trpc } from '../../lib/trpc.ts';
import './fivetools.css';
import { LoadProblem } from '../../components/Loaded.tsx';

/**
 * /personal/5etools: the local 5eTools copy in a frame filling the page below the navbar. The copy is
 * served by this server under /api/5etools/ (members only; the frame's requests carry the session
 * cookie). Without an installed copy the page says so and shows the command that installs one.
 */
export default function FivetoolsPage() {
  const status = trpc.fivetools.status.useQuery();
  useEffect(() => {
    document.title = '5eTools';
  }, []);

  if (status.data && !status.data.installed) {
    return (
      <main className="page narrow-page">
        <header className="page-hero">
          <h1>5eTools</h1>
        </header>
        <section className="card" aria-labelledby="fivetools-missing">
          <h2 id="fivetools-missing">5eTools is not installed on this server</h2>
          <p>
            The rules reference is a local copy that the site owner installs. Download a 5eTools release (a .zip or .tar.gz) and run,
            in the site&apos;s folder on the server:
          </p>
          <pre className="command">
            <code>{status.data.command}</code>
          </pre>
          <p className="small">PATH is the downloaded archive or an unpacked folder. The page shows the copy as soon as it is installed.</p>
        </section>
      </main>
    );
  }
  return (
    <main className="fivetools-page">
      <h1 className="visually-hidden">5eTools</h1>
      <LoadProblem query={status} what="the rules reference" />
      {status.data && <iframe className="fivetools-frame" src={status.data.url} title="5eTools rules reference" />}
    </main>
  );
}
