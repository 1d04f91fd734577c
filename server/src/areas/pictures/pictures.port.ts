/**
 * What other areas may use of the pictures area (the layer rule lets them import this file and
 * pictures.events.ts only): how a picture row is read and shown, where its files live, the one upload
 * pipeline, the guest copy without location, and the checks a picture's viewers pass.
 * albums (album pages, guest links), people (faces' pictures, the face worker's files) and
 * notifications (on this day) use it.
 */
export { CARD_COLUMNS, type PictureCard } from './pictures.repository.ts';
export { toPicture } from './pictures.service.ts';
export { originalKey, parseFileName, variantKey } from './pictures.files.ts';
export { resumableUploads, storeReceived, storeUpload, tusBodies, type ResumableDoor, type StoredUpload, type UploadOwner } from './pictures.http.ts';
export { guestCopy } from './pictures.location.ts';
export { searchAlbum } from './pictures.search.ts';
export { socialOf, usablePicture } from './pictures.social.ts';
export { daysOf } from './pictures.on-this-day.ts';
