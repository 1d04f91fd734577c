import { renderToString } from 'react-dom/server';
import { StandaloneAbout } from './StandaloneAbout.tsx';

/** Run by the build (vite.config.ts) to fill dist/about/index.html; never shipped to the browser. */
export function prerenderAbout(): string {
  return renderToString(<StandaloneAbout startup={null} />);
}
