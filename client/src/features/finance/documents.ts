import { DOCUMENTATION_TYPES } from '@site/contracts/finance';

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
 * Sends documentation for an entry through the page's upload route (a JSON body of base64, the same
 * fields as /api/finance/set_charity_documentation); the server tells the type from the bytes.
 */
export async function uploadDocumentation(id: number, file: File): Promise<void> {
  const response = await fetch(`/private/finance/${id}/documentation`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ file: await readAsDataUrl(file), fileType: file.type }),
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: string } | null;
    throw new Error(body?.message ?? `The documentation was refused (${response.status})`);
  }
}
