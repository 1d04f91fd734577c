import { defineArea } from '../area.ts';
import { peoplePages } from './people.pages.ts';

/**
 * People and things in the pictures (issue 40). Who may see the pictures (Friend, level 1, up) may see
 * and name the people in them and tag them; guests on a share link have no level, so they never reach
 * these procedures and never see a name. Turning people on or off for the whole site is the owner's.
 *
 * Hiding a person takes them out of everyone's view: their card, their name on faces and in search.
 * A hidden person is kept (their faces stay theirs, so new pictures of them stay hidden too) and shown
 * only to Family (level 2 and up) and to the member who named them: those may list and open them and
 * hide or show them again (`people.hide` is open to Friends for the namer's sake; the service refuses
 * any other Friend). To any other Friend a hidden person is not there at all (not listed, NOT_FOUND).
 */
export const peopleRoutes = /* @__PURE__ */ defineArea({
  procedures: {
    'people.list': 1,
    'people.get': 1,
    'people.name': 1,
    'people.merge': 1,
    'people.removeFace': 1,
    'people.hide': 1,
    // "Same person?" (issue 48): the same level as merging them by hand.
    'people.suggestions': 1,
    'people.answer': 1,
    'people.assignFace': 1,
    // "Faces without a person" on the People page: as many see them as see the people.
    'people.unassigned': 1,
    // The grouping job now (it also runs after each batch of indexing).
    'people.regroup': 3,
    'people.status': 1,
    'people.inPicture': 1,
    'people.settings': 3,
    'people.setEnabled': 3,
    // Things: the detector's labels and members' own tags on a picture.
    'tags.list': 1,
    'tags.add': 1,
    'tags.remove': 1,
  },
  pages: peoplePages,
});
