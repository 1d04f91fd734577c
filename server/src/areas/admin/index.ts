import { defineServerArea } from '../area.ts';
import { adminRouter } from './admin.router.ts';

export const adminArea = defineServerArea({ router: adminRouter });
