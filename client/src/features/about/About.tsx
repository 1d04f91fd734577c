import type { ReactNode } from 'react';
import { owner } from '../../owner.config.ts';
import { Card } from '../../components/Card.tsx';
import { copyText } from '../../lib/clipboard.ts';
import { activateOnSpaceOrEnter } from '../../lib/keys.ts';

export const EMAIL_ALERT = 'Email address copied to clipboard. This is in case your device does not support mailto links.';

function MailIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <rect x="3" y="5" width="18" height="14" rx="2" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M3.5 6.5 12 13l8.5-6.5" fill="none" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}

function CodeIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M8 7 3 12l5 5M16 7l5 5-5 5M14 4l-4 16" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

function NetworkIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <rect x="3" y="3" width="18" height="18" rx="3" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M8 10v7M8 7v.01M12 17v-4a2 2 0 0 1 4 0v4M12 10v7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

/** A round button opening one of the owner's profiles in a new tab. */
function ProfileButton({ profile, icon }: { profile: { label: string; url: string }; icon: ReactNode }) {
  return (
    <a
      className="round-button"
      href={profile.url}
      target="_blank"
      rel="noreferrer"
      aria-label={profile.label}
      title={profile.label}
      onKeyDown={activateOnSpaceOrEnter}
    >
      {icon}
    </a>
  );
}

/** The fixed round buttons at the bottom right: e-mail (also copied), code hosting, professional network. */
export function ContactButtons() {
  return (
    <div className="round-buttons">
      <a
        className="round-button"
        href={`mailto:${owner.email}`}
        aria-label={`E-mail ${owner.email}`}
        title={`E-mail ${owner.email}`}
        onClick={() => {
          // The alert waits for the copy; the mailto link itself still opens.
          void copyText(owner.email).then(() => window.alert(EMAIL_ALERT));
        }}
        onKeyDown={activateOnSpaceOrEnter}
      >
        <MailIcon />
      </a>
      <ProfileButton profile={owner.codeHosting} icon={<CodeIcon />} />
      <ProfileButton profile={owner.professionalNetwork} icon={<NetworkIcon />} />
    </div>
  );
}

/** The public About page: the owner's cards with anchors, and the contact buttons. */
export function About() {
  return (
    <main className="page about-page">
      <header className="page-hero">
        <h1>{owner.name}</h1>
        <p className="lead">{owner.tagline}</p>
        <nav aria-label="About sections" className="anchor-nav">
          {owner.aboutCards.map((card) => (
            <a key={card.id} href={`#${card.id}`}>
              {card.title}
            </a>
          ))}
        </nav>
      </header>
      <div className="card-stack">
        {owner.aboutCards.map((card) => (
          <Card key={card.id} id={card.id} title={card.title} {...(card.subtitle ? { subtitle: card.subtitle } : {})}>
            {card.paragraphs.map((text) => (
              <p key={text}>{text}</p>
            ))}
          </Card>
        ))}
      </div>
      <ContactButtons />
    </main>
  );
}
