/** Copies text, falling back to a hidden textarea where the async clipboard is unavailable. */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
}

/** Copy, then tell the user with the spec's alert text. */
export async function copyAndAlert(text: string, message: string): Promise<void> {
  await copyText(text);
  window.alert(message);
}

/** The alerts after copying one of the owner's contact details (spec: navbar and hub). */
export const COPY_ALERTS = {
  chat: 'Discord username copied to clipboard',
  phone: 'Phone number copied to clipboard',
  friendCode: 'Steam friend code copied to clipboard',
} as const;
