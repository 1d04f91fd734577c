// Worker threads do not inherit tsx's loader from `tsx cli.ts`: register it, then load the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./sim-worker.ts');
