import { useEffect, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { LEVEL_NAMES } from '@site/contracts/levels';
import { waitingText } from '@site/contracts/admin';
import { CopyButton } from '../../components/CopyButton.tsx';
import { viewerOf } from '../../lib/access.ts';
import { COPY_ALERTS } from '../../lib/clipboard.ts';
import { linksFor } from '../../lib/links.ts';
import { useLive } from '../../lib/live.ts';
import { trpc } from '../../lib/trpc.ts';
import { owner } from '../../owner.config.ts';
import { OnThisDay } from './OnThisDay.tsx';
import { WelcomePopup } from './WelcomePopup.tsx';

/** Anchors arrive as /personal#Cool%20Stuff from the navbar; the router does not scroll to them. */
function useScrollToHash() {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView({ block: 'start' });
  }, [hash]);
}

/** One hub section of tool links, anchored by id (/personal#Admin). */
function LinkSection(props: { id: string; title: string; testId: string; links: readonly { href: string; label: string }[]; children?: ReactNode }) {
  const titleId = `${props.id.replace(/\s+/g, '-').toLowerCase()}-title`;
  return (
    <section className="card hub-section" id={props.id} aria-labelledby={titleId}>
      <h2 id={titleId}>{props.title}</h2>
      <ul className="link-grid" data-testid={props.testId}>
        {props.links.map((route) => (
          <li key={route.href}>
            <Link className="link-tile" to={route.href}>
              {route.label}
            </Link>
          </li>
        ))}
      </ul>
      {props.children}
    </section>
  );
}

/** Admins: how many uploads from Friend accounts wait for approval, linking to the queue. */
function PendingPictures() {
  const pending = trpc.pictures.pendingCount.useQuery();
  useLive(['pictures']);
  if (!pending.data) return null;
  return (
    <p className="hub-pending" data-testid="hub-pending-pictures">
      <Link to="/admin/pictures">Approve Pictures</Link>: {pending.data.count} waiting
    </p>
  );
}

/** Admins: how many accounts wait for approval, linking to /admin; live. */
function WaitingAccounts() {
  const waiting = trpc.admin.waitingCount.useQuery();
  useLive(['accounts']);
  if (!waiting.data || waiting.data.count === 0) return null;
  return (
    <p className="hub-pending" data-testid="hub-waiting-accounts">
      <Link to="/admin">{waitingText(waiting.data.count)}</Link>
    </p>
  );
}

export default function HubPage() {
  const status = trpc.auth.status.useQuery();
  const viewer = viewerOf(status.data);
  useScrollToHash();
  useEffect(() => {
    document.title = `Personal - ${owner.siteTitle}`;
  }, []);
  if (viewer === null) return null;
  const cool = linksFor('cool', viewer);
  const admin = linksFor('admin', viewer);

  return (
    <main className="page hub-page">
      <header className="page-hero">
        <h1>Hello, {viewer.name}</h1>
        <p className="lead">
          {owner.hubWelcome} <span className="level-badge">{LEVEL_NAMES[viewer.level]}</span>
        </p>
      </header>

      <section className="card hub-section" id="Contact" aria-labelledby="connect-title">
        <h2 id="connect-title">Connect</h2>
        <div className="copy-grid">
          <CopyButton label={owner.chat.label} text={owner.chat.value} alert={COPY_ALERTS.chat} />
          <CopyButton label="Phone" text={owner.phone} alert={COPY_ALERTS.phone} />
          <CopyButton label={owner.friendCode.label} text={owner.friendCode.value} alert={COPY_ALERTS.friendCode} />
          <a className="copy-button" href={owner.social.url} target="_blank" rel="noreferrer">
            <span className="copy-label">{owner.social.label}</span>
            <span className="copy-target">Open profile ↗</span>
          </a>
        </div>
      </section>

      <LinkSection id="Cool Stuff" title="Cool Stuff" testId="hub-cool-links" links={cool} />
      <OnThisDay />
      {viewer.level >= 3 && (
        <LinkSection id="Admin" title="Admin" testId="hub-admin-links" links={admin}>
          <WaitingAccounts />
          <PendingPictures />
        </LinkSection>
      )}

      <section className="card hub-section" aria-labelledby="logout-title">
        <h2 id="logout-title">Logout</h2>
        <p>
          Signed in as <strong>{viewer.name}</strong>.{' '}
          <Link className="button" to="/personal/account">
            Account
          </Link>{' '}
          <Link className="button" to="/logout">
            Logout
          </Link>
        </p>
      </section>
      <WelcomePopup />
    </main>
  );
}
