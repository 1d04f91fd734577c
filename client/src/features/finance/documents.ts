import { DOCUMENTATION_TYPES, type CharityDraft, type CharityEntry } from '@site/contracts/finance';

export const DOCUMENT_ACCEPT = [...DOCUMENTATION_TYPES, '.pdf', '.jpg', '.jpeg', '.png', '.webp'].join(',');

export const documentUrl = (id: number, version: string | number) => `/private/finance/${id}/documentation?v=${encodeURIComponent(String(version))}`;

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}

/**
 * Saves an entry (a new one when id is null) together with its documentation in one request, a JSON
 * body with the file in base64; the server tells the type from the bytes and saves both or neither.
 */
export async function saveWithDocumentation(id: number | null, draft: CharityDraft, file: File): Promise<CharityEntry> {
  const response = await fetch('/private/finance/entries', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...draft, ...(id === null ? {} : { id }), file: await readAsDataUrl(file), fileType: file.type }),
  });
  const body = (await response.json().catch(() => null)) as (CharityEntry & { message?: string }) | null;
  if (!response.ok || body === null) throw new Error(body?.message ?? `The entry was refused (${response.status})`);
  return body;
}
