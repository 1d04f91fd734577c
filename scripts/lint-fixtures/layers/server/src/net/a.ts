// server-no-cycles: a.ts -> b.ts -> a.ts.
import { b } from './b.ts';
export const a = (): number => b() + 1;
