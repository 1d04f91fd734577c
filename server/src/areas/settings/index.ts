import { defineServerArea } from '../area.ts';
import { settingsRouter } from './settings.router.ts';

export const settingsArea = defineServerArea({ router: settingsRouter });
