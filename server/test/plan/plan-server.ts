import { beforeEach } from 'vitest';
import { insertDefaultMeals } from '../../src/areas/plan/plan.migrations.ts';
import { insertKitchenUnits } from '../../src/areas/recipes/recipes.migrations.ts';
import { useTestServer, type TestDbKind } from '../helpers.ts';

/** The family's zone in these tests: an hour east of UTC in winter, two in summer. */
export const ZONE = 'Europe/Oslo';

/** A test server planning in ZONE, with the rows the migrations ship (each test starts from empty tables). */
export function usePlanServer(kind: TestDbKind) {
  const s = useTestServer(kind, { SITE_TIME_ZONE: ZONE });
  beforeEach(async () => {
    await insertKitchenUnits(s.db);
    await insertDefaultMeals(s.db);
  });
  return s;
}
