/**
 * Steps the member-tool browser tests share: an owner who raises a second account to the level a
 * page needs, and pages whose prompts are answered from a queue (the harness accepts prompts empty).
 */
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { DESKTOP, expect, signUp, signUpOwner, waitForShell, type SiteHarness } from './harness.ts';

export type ScriptedPage = { page: Page; answers: string[]; alerts: string[] };

/** A page in its own context; each prompt takes the next answer, every dialog's text is recorded. */
export async function scriptedPage(site: SiteHarness, viewport: { width: number; height: number } = DESKTOP): Promise<ScriptedPage> {
  const context = await site.newContext(viewport);
  const page = await context.newPage();
  const answers: string[] = [];
  const alerts: string[] = [];
  page.on('dialog', (dialog) => {
    alerts.push(dialog.message());
    void (dialog.type() === 'prompt' ? dialog.accept(answers.shift() ?? '') : dialog.accept());
  });
  return { page, answers, alerts };
}

/** Sets an account's level through the admin /api call, from the owner's signed-in page. */
export async function setLevel(owner: Page, name: string, level: number): Promise<void> {
  const status = await owner.evaluate(
    async ([username, authlevel]) =>
      (
        await fetch('/api/admin/set_user_auth', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username, authlevel }),
        })
      ).status,
    [name, level] as const,
  );
  expect(status).toBe(200);
}

/** The owner (first account) and a second account, signed in on its own scripted page at level 0. */
export async function ownerAndMember(site: SiteHarness, name: string): Promise<{ owner: Page; member: ScriptedPage }> {
  const owner = await site.newPage();
  await signUpOwner(owner);
  const member = await scriptedPage(site);
  await signUp(member.page, name, `${name}-password`);
  await member.page.waitForURL('**/preauth');
  return { owner, member };
}

/** Opens a page and waits for its heading. */
export async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForShell(page);
}

/** Uploads a JPEG of one colour through the upload route from a signed-in page (the upload page has its own test). */
export async function uploadPicture(page: Page, caption: string, date: string, colour: string, size = { width: 800, height: 600 }): Promise<void> {
  const buffer = await sharp({ create: { ...size, channels: 3, background: colour } }).jpeg().toBuffer();
  const res = await page.request.post('/api/pictures/upload', { multipart: { file: { name: `${caption}.jpg`, mimeType: 'image/jpeg', buffer }, caption, date } });
  expect(res.status()).toBe(200);
}
