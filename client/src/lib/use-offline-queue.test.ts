import { describe, expect, it } from 'vitest';
import { houseMessages } from '@site/contracts/house';
import { checkOffline } from './use-offline-queue.ts';

const CLIENT_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('checking a change before it waits offline', () => {
  it("refuses with the schema's own message what the server would refuse", async () => {
    await expect(checkOffline('house.add', { task: 'Butter', type: 'Nonsense', clientId: CLIENT_ID })).resolves.toBe(houseMessages.badType);
    await expect(checkOffline('house.add', { task: 'Butter', type: 'To Get', clientId: CLIENT_ID })).resolves.toBeUndefined();
  });

  it('lets the change wait unchecked when the schemas cannot be loaded (the network went before their chunk came)', async () => {
    const offline = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    await expect(checkOffline('house.add', { task: 'Butter', type: 'Nonsense', clientId: CLIENT_ID }, offline)).resolves.toBeUndefined();
  });
});
