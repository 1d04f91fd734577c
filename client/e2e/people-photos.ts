import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { DESKTOP, expect, signUpOwner, waitForShell, type SiteHarness } from './harness.ts';

/** Real photographs (server/test/people/fixtures): a group of four women, and two portraits of its two leftmost. */
const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'server', 'test', 'people', 'fixtures');

export async function uploadPhoto(page: Page, name: string, caption: string): Promise<void> {
  const buffer = fs.readFileSync(path.join(FIXTURES, `${name}.jpg`));
  const res = await page.request.post('/api/pictures/upload', { multipart: { file: { name: `${name}.jpg`, mimeType: 'image/jpeg', buffer }, caption, date: '2024-05-12' } });
  expect(res.status()).toBe(200);
}

/** A new owner who uploaded the two portraits and the group photo, on the Admin page once all three are indexed. */
export async function ownerWithIndexedPhotos(site: SiteHarness, timeout = 120_000): Promise<Page> {
  const owner = await site.newPage({ viewport: DESKTOP });
  await signUpOwner(owner);
  await uploadPhoto(owner, 'portrait-6a', 'Zoë and Ann');
  await uploadPhoto(owner, 'portrait-6b', 'Ann and Zoë');
  await uploadPhoto(owner, 'group-6', 'The four of us');
  // The owner's Admin page: the indexing's progress, to the end.
  await owner.goto('/admin');
  await waitForShell(owner);
  await expect.poll(() => owner.getByTestId('people-indexed').textContent(), { timeout }).toBe('Indexed 3 of 3');
  return owner;
}
