import { defineServerArea } from '../area.ts';
import { devDashboardRouter } from './dev-dashboard.router.ts';

export const devDashboardArea = defineServerArea({ router: devDashboardRouter });
