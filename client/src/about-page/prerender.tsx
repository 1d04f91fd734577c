import { renderToStaticMarkup, renderToString } from 'react-dom/server';
import { LoadingCover } from '../components/LoadingCover.tsx';
import { StandaloneAbout } from './StandaloneAbout.tsx';

/** Run by the build (vite.config.ts) to fill dist/about/index.html; never shipped to the browser. */
export function prerenderAbout(): string {
  return renderToString(<StandaloneAbout startup={null} />);
}

/** The shell's loading cover, for the app's index.html to paint before any script has run (React replaces it). */
export function prerenderCover(): string {
  return renderToStaticMarkup(<LoadingCover />);
}
