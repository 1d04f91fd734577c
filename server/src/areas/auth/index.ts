import { defineServerArea } from '../area.ts';
import { authRouter } from './auth.router.ts';

export const authArea = defineServerArea({ router: authRouter });
