import { beta } from '../beta/Beta.ts';
import { alphaHelper } from './helper.ts';

export const alpha = (): string => beta() + alphaHelper;
