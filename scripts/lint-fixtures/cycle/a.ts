import { b } from './b.ts';

export const a = (): string => `a${b()}`;
