import type { Page } from 'playwright-core';
import { it } from 'vitest';
import { PHONE, closeWelcome, describeInBrowser, expect, logIn, seriousAxeViolations, useSite, waitForShell } from './harness.ts';
import { delayUntilSeen, expectWithinBound } from './live-bound.ts';
import { ownerAndMember, setLevel, uploadPicture } from './members.ts';

/** Today's date a year ago (four years for 29 February) as the upload form writes it: what "On this day" shows. */
function aYearAgoToday(): string {
  const now = new Date();
  const leapDay = now.getMonth() === 1 && now.getDate() === 29;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear() - (leapDay ? 4 : 1)}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

async function openViewer(page: Page, caption: string) {
  await page.goto('/personal/pictures/month/0');
  await waitForShell(page);
  await page.getByRole('button', { name: `Open ${caption}` }).click();
  const viewer = page.getByTestId('picture-viewer');
  await viewer.getByTestId('heart-summary').waitFor();
  return viewer;
}

describeInBrowser('pictures: hearts and comments, live; On this day on the hub', () => {
  const site = useSite();

  it("a heart and a comment appear live on another member's open viewer (desktop and phone); On this day opens the viewer", async () => {
    // Grandma signs up (a pending account on a page of its own); the owner makes her a Friend.
    const { owner } = await ownerAndMember(site, 'grandma');
    await setLevel(owner, 'grandma', 1);
    await uploadPicture(owner, 'Beach day', aYearAgoToday(), '#2a6fb0');

    // Grandma on a phone (a touch screen), the owner on a desktop, both looking at the same picture.
    const touch = await site.browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true, baseURL: site.server.baseUrl, serviceWorkers: 'block' });
    const phone = await site.newPage({ context: touch });
    await logIn(phone, 'grandma', 'grandma-password');
    await phone.waitForURL('**/personal');
    await waitForShell(phone);
    await closeWelcome(phone, 'Cancel');
    const ownerViewer = await openViewer(owner, 'Beach day');
    const phoneViewer = await openViewer(phone, 'Beach day');
    await expect(ownerViewer.getByTestId('heart-summary').textContent()).resolves.toBe('No hearts yet');

    const delays: number[] = [];
    delays.push(
      await delayUntilSeen(
        phone,
        'pictures.heart',
        () => phoneViewer.getByRole('button', { name: 'Heart', exact: true }).click(),
        () => ownerViewer.getByTestId('heart-summary').getByText('1 heart: grandma').waitFor(),
      ),
    );
    await expect(phoneViewer.getByRole('button', { name: 'Hearted', exact: true }).getAttribute('aria-pressed')).resolves.toBe('true');
    delays.push(
      await delayUntilSeen(
        owner,
        'pictures.comment',
        async () => {
          // Several lines: on a keyboard Enter starts a new line, ctrl+Enter sends.
          const field = ownerViewer.getByLabel('Add a comment');
          await field.pressSequentially('Grandma, this is the beach');
          await field.press('Enter');
          await field.pressSequentially('from last summer!');
          await field.press('Control+Enter');
        },
        () => phoneViewer.getByTestId('social-comment').getByText('Grandma, this is the beach from last summer!').waitFor(),
      ),
    );
    await expect(phoneViewer.locator('.social-comment-text').first().innerText()).resolves.toBe('Grandma, this is the beach\nfrom last summer!');
    await expect(phoneViewer.getByTestId('social-comment').locator('strong').textContent()).resolves.toBe('owner');
    delays.push(
      await delayUntilSeen(
        phone,
        'pictures.comment',
        async () => {
          // On a touch screen Enter sends.
          const field = phoneViewer.getByLabel('Add a comment');
          await field.tap();
          await field.fill('Lovely, thank you!');
          await field.press('Enter');
        },
        () => ownerViewer.getByText('Lovely, thank you!').waitFor(),
      ),
    );
    delays.push(
      await delayUntilSeen(
        owner,
        'pictures.heart',
        () => ownerViewer.getByRole('button', { name: 'Heart', exact: true }).click(),
        () => phoneViewer.getByTestId('heart-summary').getByText('2 hearts: grandma and owner').waitFor(),
      ),
    );
    expectWithinBound(delays, "a heart or a comment, on the other member's open viewer");

    // Grandma's own comment offers Edit and Delete; the owner's only to the owner (an admin may delete hers).
    const [ownersComment, grandmasComment] = await phoneViewer.getByTestId('social-comment').all();
    await expect(ownersComment?.getByRole('button').count()).resolves.toBe(0);
    await expect(grandmasComment?.getByRole('button', { name: /^Edit your comment/ }).count()).resolves.toBe(1);
    await expect(ownerViewer.getByRole('button', { name: /^Delete grandma's comment/ }).count()).resolves.toBe(1);

    await site.screenshot(owner, 'pictures-social-viewer-desktop');
    await site.screenshot(phone, 'pictures-social-viewer-phone');
    await expect(seriousAxeViolations(owner)).resolves.toEqual([]);

    // On this day: the hub's card, taken a year ago today, opens the picture in the gallery's viewer.
    for (const [page, name] of [[owner, 'desktop'], [phone, 'phone']] as const) {
      await page.goto('/personal');
      await waitForShell(page);
      const card = page.getByTestId('on-this-day');
      await card.getByText('1 year ago').or(card.getByText('4 years ago')).waitFor();
      await card.scrollIntoViewIfNeeded();
      await site.screenshot(page, `hub-on-this-day-${name}`);
      await card.getByRole('link', { name: /^Open Beach day/ }).click();
      await page.waitForURL('**/personal/pictures/month/*');
      await page.getByTestId('picture-viewer').locator('.viewer-caption').getByText('Beach day').waitFor();
    }
    expect(site.pageErrors(owner)).toEqual([]);
    expect(site.pageErrors(phone)).toEqual([]);
    await touch.close();
  });
});
