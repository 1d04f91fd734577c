import { defineServerArea } from '../area.ts';
import { windowsKeysRouter } from './windows-keys.router.ts';

export const windowsKeysArea = defineServerArea({ router: windowsKeysRouter });
