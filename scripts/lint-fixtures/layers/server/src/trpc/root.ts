// platform-not-to-composition: the tRPC base importing the list of areas.
import type { AreaList } from '../areas/index.ts';
export type Root = AreaList;
