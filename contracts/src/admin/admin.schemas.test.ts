import { describe, expect, it } from 'vitest';
import { setLevelInput } from './admin.schemas.ts';

describe('setLevelInput', () => {
  it('explains a level out of range in words', () => {
    const result = setLevelInput.safeParse({ name: 'bob', level: 7 });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('The level must be 0, 1, 2 or 3');
  });
});
