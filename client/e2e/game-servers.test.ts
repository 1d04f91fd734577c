import net from 'node:net';
import { afterAll, it } from 'vitest';
import { paperStatus, startMinecraftResponder, type MinecraftResponder } from '../../server/test/game-servers/minecraft-responder.ts';
import { DESKTOP, PHONE, describeInBrowser, expect, seriousAxeViolations, useSite } from './harness.ts';
import { open, ownerAndMember, setLevel } from './members.ts';

describeInBrowser('game servers: live status and copying the address', () => {
  const site = useSite({ GAME_HOST: '127.0.0.1' });
  const game = net.createServer((socket) => socket.destroy());
  let minecraft: MinecraftResponder | undefined;
  afterAll(async () => {
    await minecraft?.close();
    await new Promise<void>((resolve) => game.close(() => resolve()));
  });

  it('an admin lists a server; a friend sees it Online and copies host:port', async () => {
    await new Promise<void>((resolve) => game.listen(0, '127.0.0.1', resolve));
    const port = (game.address() as net.AddressInfo).port;
    const { owner, member } = await ownerAndMember(site, 'friend');

    await open(owner, '/personal/game-servers');
    await owner.getByLabel('Port').fill(String(port));
    await owner.getByLabel('Description').fill('Minecraft survival');
    await owner.getByRole('button', { name: 'Add', exact: true }).click();
    await owner.getByRole('cell', { name: /^Minecraft survival/ }).waitFor();
    // A Minecraft server, queried with its own protocol: who is on.
    minecraft = await startMinecraftResponder(paperStatus(['Steve', 'Alex', 'Herobrine']));
    await owner.getByLabel('Port').fill(String(minecraft.port));
    await owner.getByLabel('Game').selectOption({ label: 'Minecraft' });
    await owner.getByLabel('Description').fill('Family survival world');
    await owner.getByRole('button', { name: 'Add', exact: true }).click();
    await owner.getByText('3 / 20').waitFor();

    const { page, alerts } = member;
    await open(page, '/personal/game-servers');
    await page.waitForURL('**/preauth');
    await setLevel(owner, 'friend', 1);
    await open(page, '/personal/game-servers');
    await page.getByRole('heading', { name: 'Active Servers:' }).waitFor();
    const online = page.getByText('Online', { exact: true }).first();
    await online.waitFor();
    const row = page.getByRole('row').filter({ hasText: 'Family survival world' });
    await expect(row.getByRole('cell').allInnerTexts()).resolves.toEqual([
      'Online',
      String(minecraft.port),
      'Minecraft',
      expect.stringMatching(/^3 \/ 20\s+Steve, Alex, Herobrine$/),
      expect.stringMatching(/^Family survival world\s*Version Paper 1\.21\.1 · \d+ ms · Online since \d\d:\d\d/),
      // Notifications: the member's own switch for server.down / server.up of this server.
      expect.stringMatching(/^\s*Follow$/),
    ]);
    await row.getByRole('img', { name: 'Players over the last 24 hours: at most 3, now 3' }).waitFor();

    // Online reads as good news (green), not as grey text.
    const [r, g, b] = await online.evaluate((el) => {
      // Through a canvas: color-mix() computes to color(srgb ...), a canvas pixel is plain RGB.
      const context = document.createElement('canvas').getContext('2d');
      if (!context) return [];
      context.fillStyle = getComputedStyle(el).color;
      context.fillRect(0, 0, 1, 1);
      return [...context.getImageData(0, 0, 1, 1).data];
    });
    expect(g).toBeGreaterThan((r ?? 0) + 20);
    expect(g).toBeGreaterThan((b ?? 0) + 20);
    await page.getByRole('button', { name: `${port}: copy 127.0.0.1:${port}` }).click();
    await expect.poll(() => alerts.at(-1)).toBe('Address copied to clipboard');
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(`127.0.0.1:${port}`);
    await expect(page.getByRole('button', { name: /^Remove / }).count()).resolves.toBe(0);

    expect(await seriousAxeViolations(page)).toEqual([]);
    await site.screenshot(owner, 'game-servers-admin-desktop');
    await page.setViewportSize(DESKTOP);
    await site.screenshot(page, 'game-servers-players-desktop');
    await page.setViewportSize(PHONE);
    // On a phone each server is a card: its players and names are on screen, nothing scrolls sideways.
    await row.getByText('Steve, Alex, Herobrine').waitFor();
    await expect(page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).resolves.toBe(true);
    await site.screenshot(page, 'game-servers-phone', { fullPage: true });
    await site.screenshot(page, 'game-servers-players-phone', { fullPage: true });
  });
});
