import { useId, useState } from 'react';
import { imageHref } from './recipe-data.ts';

async function uploadImage(file: File): Promise<string> {
  const body = new FormData();
  body.append('image', file);
  const res = await fetch('/private/recipes/images', { method: 'POST', body, credentials: 'same-origin' });
  const answer = (await res.json().catch(() => ({}))) as { image?: string; message?: string };
  if (!res.ok || !answer.image) throw new Error(answer.message ?? `Upload failed (${res.status})`);
  return answer.image;
}

/** An ingredient's picture: upload one (stored by the server as a small WebP), or remove it. */
export function ImageField({ label, image, onChange }: { label: string; image: string | null; onChange: (image: string | null) => void }) {
  const id = useId();
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const pick = async (file: File | undefined) => {
    if (!file) return;
    setState({ busy: true, error: null });
    try {
      onChange(await uploadImage(file));
      setState({ busy: false, error: null });
    } catch (error) {
      setState({ busy: false, error: (error as Error).message });
    }
  };
  return (
    <div className="field image-field">
      <span className="image-field-label">Image</span>
      <div className="image-field-row">
        {image && <img className="editor-thumb" src={imageHref(image)} alt="" />}
        <label className="button file-button" htmlFor={id}>
          {state.busy ? 'Uploading...' : image ? 'Change' : 'Upload'}
        </label>
        <input
          id={id}
          type="file"
          accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
          className="visually-hidden"
          aria-label={`${label} image`}
          disabled={state.busy}
          onChange={(event) => {
            void pick(event.target.files?.[0]);
            event.target.value = '';
          }}
        />
        {image && (
          <button type="button" className="button" aria-label={`Remove ${label.toLowerCase()} image`} onClick={() => onChange(null)}>
            ✕
          </button>
        )}
      </div>
      {state.error && (
        <p className="field-hint" role="alert">
          {state.error}
        </p>
      )}
    </div>
  );
}
