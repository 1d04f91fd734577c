/** The house area's tables (none yet). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled when the area is built
export interface HouseTables {}
