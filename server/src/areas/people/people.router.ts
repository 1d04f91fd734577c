import {
  answerPeopleInput,
  assignFaceInput,
  hidePersonInput,
  listPeopleInput,
  mergePeopleInput,
  namePersonInput,
  personIdInput,
  pictureFacesInput,
  removeFaceInput,
  setPeopleEnabledInput,
  tagInput,
  tagsInput,
} from '@site/contracts';
import { procedure, router } from '../../trpc/procedures.ts';
import * as people from './people.service.ts';
import { answer, assignFace, suggestions } from './people.suggestions.ts';
import { regroupNow } from './people.regroup.ts';

export const peopleRouter = router({
  list: procedure('people.list')
    .input(listPeopleInput)
    .query(({ ctx, input }) => people.list(ctx.deps, ctx.user, input?.includeHidden ?? false)),
  get: procedure('people.get')
    .input(personIdInput)
    .query(({ ctx, input }) => people.get(ctx.deps, ctx.user, input.id)),
  name: procedure('people.name')
    .input(namePersonInput)
    .mutation(({ ctx, input }) => people.name(ctx.deps, ctx.user, input.id, input.name)),
  merge: procedure('people.merge')
    .input(mergePeopleInput)
    .mutation(({ ctx, input }) => people.merge(ctx.deps, ctx.user, input.ids)),
  removeFace: procedure('people.removeFace')
    .input(removeFaceInput)
    .mutation(({ ctx, input }) => people.removeFace(ctx.deps, input.faceId)),
  hide: procedure('people.hide')
    .input(hidePersonInput)
    .mutation(({ ctx, input }) => people.hide(ctx.deps, ctx.user, input.id, input.hidden)),
  suggestions: procedure('people.suggestions').query(({ ctx }) => suggestions(ctx.deps)),
  answer: procedure('people.answer')
    .input(answerPeopleInput)
    .mutation(({ ctx, input }) => answer(ctx.deps, ctx.user, input.a, input.b, input.same)),
  assignFace: procedure('people.assignFace')
    .input(assignFaceInput)
    .mutation(({ ctx, input }) => assignFace(ctx.deps, ctx.user, input.faceId, { personId: input.personId, name: input.name })),
  unassigned: procedure('people.unassigned').query(({ ctx }) => people.unassigned(ctx.deps)),
  regroup: procedure('people.regroup').mutation(({ ctx }) => regroupNow(ctx.deps)),
  status: procedure('people.status').query(({ ctx }) => people.status(ctx.deps)),
  inPicture: procedure('people.inPicture')
    .input(pictureFacesInput)
    .query(({ ctx, input }) => people.inPicture(ctx.deps, ctx.user, input.pictureId)),
  settings: procedure('people.settings').query(({ ctx }) => people.settings(ctx.deps)),
  setEnabled: procedure('people.setEnabled')
    .input(setPeopleEnabledInput)
    .mutation(({ ctx, input }) => people.setEnabled(ctx.deps, input.enabled)),
});

export const tagsRouter = router({
  list: procedure('tags.list')
    .input(tagsInput)
    .query(({ ctx, input }) => people.tags(ctx.deps, ctx.user, input.pictureId)),
  add: procedure('tags.add')
    .input(tagInput)
    .mutation(({ ctx, input }) => people.addTag(ctx.deps, ctx.user, input.pictureId, input.tag)),
  remove: procedure('tags.remove')
    .input(tagInput)
    .mutation(({ ctx, input }) => people.removeTag(ctx.deps, ctx.user, input.pictureId, input.tag)),
});
