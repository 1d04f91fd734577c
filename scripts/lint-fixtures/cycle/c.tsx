import { a } from './a.ts';

export const c = (): string => (Math.random() < 0 ? a() : 'c');
