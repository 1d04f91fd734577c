// areas-not-to-composition: an area importing the list of areas.
import { alphaRows } from './alpha.repository.ts';
import type { AreaList } from '../index.ts';
export const alphaService = (): string[] => alphaRows();
export type Alpha = AreaList;
