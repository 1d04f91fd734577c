// config-reads-env-only: config.ts importing another server module.
import { AppError } from './errors.ts';
export const loadConfig = (): AppError | null => null;
