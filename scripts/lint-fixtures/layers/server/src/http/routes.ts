// platform-not-to-areas: a platform module importing an area.
import { alphaRows } from '../areas/alpha/alpha.repository.ts';
export const routes = (): string[] => alphaRows();
