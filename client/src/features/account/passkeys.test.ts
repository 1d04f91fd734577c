import { describe, expect, it } from 'vitest';
import { deviceName, passkeyErrorMessage } from './passkeys.ts';

describe('passkeys in the browser', () => {
  it('names a new passkey after the browser and system', () => {
    expect(deviceName('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36')).toBe('Chrome on Android');
    expect(deviceName('Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1')).toBe('Safari on iOS');
    expect(deviceName('Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0')).toBe('Firefox on Linux');
    expect(deviceName('')).toBe('Passkey');
  });

  it('explains a cancelled ceremony', () => {
    expect(passkeyErrorMessage(new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError'))).toBe('The passkey request was cancelled or timed out.');
    expect(passkeyErrorMessage(new Error('That passkey is not known here'))).toBe('That passkey is not known here');
  });
});
