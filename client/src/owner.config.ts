/**
 * Everything on the site that belongs to its owner: name, the About cards, contact details and
 * profile links. SAMPLE CONTENT - replace every value below with your own before deploying.
 * Components read only from here; no personal string lives anywhere else in the client.
 */
export type AboutCard = {
  /** The anchor: /about#<id>. */
  id: string;
  title: string;
  subtitle?: string;
  paragraphs: string[];
};

export type OwnerConfig = {
  name: string;
  /** Shown in the navbar and the browser tab. */
  siteTitle: string;
  /** The navbar title on narrow screens. */
  shortTitle: string;
  tagline: string;
  email: string;
  phone: string;
  /** Chat service username, copied from the navbar and the hub. */
  chat: { label: string; value: string };
  /** Game-platform friend code, copied from the navbar and the hub. */
  friendCode: { label: string; value: string };
  /** A social account opened as an external link. */
  social: { label: string; url: string };
  codeHosting: { label: string; url: string };
  professionalNetwork: { label: string; url: string };
  aboutCards: AboutCard[];
  oldHome: { overview: string[]; biography: string[] };
  hubWelcome: string;
};

export const owner: OwnerConfig = {
  name: 'Sample Owner',
  siteTitle: 'Sample Owner',
  shortTitle: 'S.O.',
  tagline: 'Sample content: software engineer, climber and tinkerer.',
  email: 'owner@example.com',
  phone: '+1 555 010 0199',
  chat: { label: 'Discord', value: 'sample_owner' },
  friendCode: { label: 'Steam', value: '000000000' },
  social: { label: 'Snapchat', url: 'https://social.example.com/sample-owner' },
  codeHosting: { label: 'Code hosting profile', url: 'https://code.example.com/sample-owner' },
  professionalNetwork: { label: 'Professional network profile', url: 'https://network.example.com/in/sample-owner' },
  aboutCards: [
    {
      id: 'overview',
      title: 'Overview',
      paragraphs: [
        'This is sample text. Sample Owner is a software engineer who builds small, dependable tools for friends and family, and this site is where those tools live.',
        'Replace these paragraphs in client/src/owner.config.ts with your own introduction.',
      ],
    },
    {
      id: 'work',
      title: 'Example Co',
      subtitle: 'Work',
      paragraphs: [
        'Sample text: full-stack engineer at Example Co since 2022, working on internal dashboards, data pipelines and the occasional late-night deploy.',
        'Typical stack: TypeScript, React, PostgreSQL and whatever the problem needs.',
      ],
    },
    {
      id: 'college',
      title: 'College',
      subtitle: 'Example University',
      paragraphs: [
        'Sample text: B.S. in Computer Science from Example University, with a minor in mathematics.',
        'Teaching assistant for the introductory programming course for two years.',
      ],
    },
    {
      id: 'high-school',
      title: 'High School',
      subtitle: 'Example High School',
      paragraphs: ['Sample text: robotics team programmer, cross-country runner and editor of the school paper.'],
    },
    {
      id: 'hobbies',
      title: 'Hobbies',
      paragraphs: [
        'Sample text: bouldering twice a week, tabletop role-playing games, cooking from a growing recipe collection and self-hosting far too many small services.',
      ],
    },
  ],
  oldHome: {
    overview: [
      'Sample text: the first version of this site was a single page with a list of links to the tools shared with friends.',
      'It grew into the members hub you see today; this page is kept for nostalgia.',
    ],
    biography: [
      'Sample text: Sample Owner grew up building things - first with blocks, then with code.',
      'Replace this biography in client/src/owner.config.ts.',
    ],
  },
  hubWelcome: 'Welcome to the members hub. Everything shared with friends and family is linked below.',
};
