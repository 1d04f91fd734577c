import { charityInput, entryIdInput, setDocumentationInput, updateCharityInput, yearInput } from '@site/contracts';
import { procedure, router } from '../../trpc/procedures.ts';
import * as finance from './finance.service.ts';

export const financeRouter = router({
  list: procedure('finance.list')
    .input(yearInput)
    .query(({ ctx, input }) => finance.list(ctx.deps, input.year)),
  overview: procedure('finance.overview')
    .input(yearInput)
    .query(({ ctx, input }) => finance.overview(ctx.deps, input.year)),
  add: procedure('finance.add')
    .input(charityInput)
    .mutation(({ ctx, input }) => finance.add(ctx.deps, input)),
  update: procedure('finance.update')
    .input(updateCharityInput)
    .mutation(({ ctx, input }) => finance.update(ctx.deps, input)),
  remove: procedure('finance.remove')
    .input(entryIdInput)
    .mutation(({ ctx, input }) => finance.remove(ctx.deps, input.id)),
  documentation: procedure('finance.documentation')
    .input(entryIdInput)
    .query(({ ctx, input }) => finance.documentation(ctx.deps, input.id)),
  setDocumentation: procedure('finance.setDocumentation')
    .input(setDocumentationInput)
    .mutation(({ ctx, input }) => finance.setDocumentation(ctx.deps, input)),
  removeDocumentation: procedure('finance.removeDocumentation')
    .input(entryIdInput)
    .mutation(({ ctx, input }) => finance.removeDocumentation(ctx.deps, input.id)),
});
