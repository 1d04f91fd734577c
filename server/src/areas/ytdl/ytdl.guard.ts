import { ytdlMessages } from '@site/contracts';
import { addressGuard } from '../../net/address-guard.ts';

/** YT-DL's use of the shared address guard (server/src/net), refusing in a video page's words. */
export { isPrivateAddress, type NetPolicy } from '../../net/address-guard.ts';

const guard = addressGuard(ytdlMessages);
export const resolveAllowed = guard.resolveAllowed;
export const parseVideoUrl = guard.parseUrl;
export const checkVideoUrl = guard.checkUrl;
