// The composition: the list of areas.
export type AreaList = string[];
