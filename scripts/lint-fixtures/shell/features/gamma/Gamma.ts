import { shellTitle } from '../../app/Shell.ts';
import { gammaHelper } from './helper.ts';

export const gamma = (): string => shellTitle() + gammaHelper;
