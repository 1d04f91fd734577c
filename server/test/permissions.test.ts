import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { accessMessages, allows, ACCOUNT_LEVELS, procedures, type Level, type ProcedurePath } from '@site/contracts';
import { samples } from './area-tables.ts';
import { createContextInner } from '../src/trpc/context.ts';
import { invoke } from '../src/trpc/invoke.ts';
import { appRouter } from '../src/trpc/root.ts';
import { createUser, databases, useTestServer } from './helpers.ts';

/**
 * A valid input per procedure. Typed over the whole permission table, so a procedure added there
 * fails the typecheck until it has a sample here, and the matrix below then covers it.
 */


const gateMessages: string[] = [accessMessages.signInRequired, accessMessages.levelTooLow];
const viewers: (Level | null)[] = [null, ...ACCOUNT_LEVELS];

describe('the permission table', () => {
  it('has exactly one procedure per entry, built for that entry', () => {
    expect(Object.keys(appRouter._def.procedures).sort()).toEqual(Object.keys(procedures).sort());
  });
});

describe.each(databases)('permission matrix (%s)', (kind) => {
  const s = useTestServer(kind);
  const paths = Object.keys(procedures) as ProcedurePath[];
  const cases = paths.flatMap((path) => viewers.map((level) => [path, level === null ? 'anonymous' : `level ${level}`, level] as const));

  it.each(cases)('%s as %s', async (path, _who, level) => {
    // Some account must exist so that sign-ups are not the first (owner) one.
    await createUser(s.deps, 'existing', 3);
    const user = level === null ? null : await createUser(s.deps, `viewer${level}`, level);
    const ctx = createContextInner(s.deps, { user });
    const allowed = allows(procedures[path], ctx.viewer);
    let refusal: TRPCError | undefined;
    try {
      await invoke(path, ctx, samples[path]);
    } catch (error) {
      if (!(error instanceof TRPCError)) throw error;
      if (gateMessages.includes(error.message)) refusal = error;
      else expect(error.code).not.toBe('INTERNAL_SERVER_ERROR');
    }
    if (allowed) {
      expect(refusal).toBeUndefined();
    } else {
      expect(refusal?.code).toBe(level === null ? 'UNAUTHORIZED' : 'FORBIDDEN');
    }
  });
});
