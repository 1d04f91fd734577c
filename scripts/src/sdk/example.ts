/**
 * An example of a TypeScript script calling the site with the typed client of `@site/sdk`:
 *
 *   SITE_URL=https://home.example.org SITE_TOKEN=site_... npx tsx scripts/src/sdk/example.ts "Buy milk"
 *
 * It adds a task to the member's TODO list (todo.add, a mutation), then prints the list (todo.list, a
 * query), one task a line, `#id status task`. A token needs the scopes todo:write and todo:read (or
 * every right). docs/api.md has the same calls with curl and Python.
 */
import { createSiteClient } from '@site/sdk';

async function main(args: string[]): Promise<number> {
  const url = process.env.SITE_URL;
  const token = process.env.SITE_TOKEN;
  const task = args.join(' ').trim();
  if (!url || !token || task === '') {
    console.error('Usage: SITE_URL=https://home.example.org SITE_TOKEN=site_... npx tsx scripts/src/sdk/example.ts TASK');
    return 2;
  }
  const site = createSiteClient({ url, token });
  try {
    const added = await site.todo.add.mutate({ task });
    console.log(`Added #${added.id}: ${added.task}`);
    for (const item of await site.todo.list.query()) console.log(`#${item.id} ${item.status} ${item.task}`);
    return 0;
  } catch (error) {
    // A refusal carries the server's own sentence (a missing scope, a level too low, a bad input).
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
