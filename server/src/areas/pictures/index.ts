import { defineServerArea } from '../area.ts';
import { picturesRouter } from './pictures.router.ts';

export const picturesArea = defineServerArea({ router: picturesRouter });
