import { c } from './c.tsx';

export const b = (): string => `b${c()}`;
