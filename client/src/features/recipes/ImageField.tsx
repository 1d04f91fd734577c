import { imageHref } from './recipe-data.ts';

/** An ingredient's picture. Uploading needs the media storage; until it is wired in the field only shows one. */
export function ImageField({ image }: { label: string; image: string | null; onChange: (image: string | null) => void }) {
  if (!image) return null;
  return <img className="editor-thumb" src={imageHref(image)} alt="" />;
}
