import { defineServerArea } from '../area.ts';
import { settingsHttp } from './settings.http.ts';
import { settingsRouter } from './settings.router.ts';

export const settingsArea = defineServerArea({ router: settingsRouter, http: settingsHttp });
