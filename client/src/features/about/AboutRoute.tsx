import { useEffect } from 'react';
import { owner } from '../../owner.config.ts';
import { About } from './About.tsx';

export default function AboutRoute() {
  useEffect(() => {
    document.title = `About - ${owner.siteTitle}`;
  }, []);
  return <About />;
}
