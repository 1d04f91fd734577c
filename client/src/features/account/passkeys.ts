/**
 * The browser's side of passkeys. @simplewebauthn/browser is loaded only when a passkey is made or
 * used (from /login and /personal/account), never with the app shell.
 */
import type { PublicKeyCredentialCreationOptionsJSON as RegistrationOptions, PublicKeyCredentialRequestOptionsJSON as AuthenticationOptions } from '@simplewebauthn/browser';

export async function createPasskey(optionsJSON: RegistrationOptions) {
  const { startRegistration } = await import('@simplewebauthn/browser');
  return startRegistration({ optionsJSON });
}

export async function getPasskey(optionsJSON: AuthenticationOptions) {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  return startAuthentication({ optionsJSON });
}

/** What a refused or cancelled ceremony means to the person in front of the browser. */
export function passkeyErrorMessage(error: unknown): string {
  // The browser's refusals are DOMExceptions, which are not always instances of Error.
  const { name, message } = typeof error === 'object' && error !== null ? (error as { name?: unknown; message?: unknown }) : {};
  if (name === 'NotAllowedError' || name === 'AbortError') return 'The passkey request was cancelled or timed out.';
  if (name === 'InvalidStateError') return 'This device already holds a passkey for your account.';
  if (name === 'SecurityError') return 'Passkeys need the site\'s own address (its name, not an IP address, and HTTPS unless it is localhost).';
  return typeof message === 'string' && message !== '' ? message : 'Something went wrong. Try again.';
}

/** A default name for a new passkey: the browser and system it is made on ('Chrome on Android'). */
export function deviceName(userAgent: string): string {
  const os = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad|iPod/.test(userAgent)
      ? 'iOS'
      : /Mac OS X|Macintosh/.test(userAgent)
        ? 'macOS'
        : /Windows/.test(userAgent)
          ? 'Windows'
          : /CrOS/.test(userAgent)
            ? 'ChromeOS'
            : /Linux/.test(userAgent)
              ? 'Linux'
              : '';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : '';
  if (browser && os) return `${browser} on ${os}`;
  return browser || os || 'Passkey';
}
