import { createTRPCClient, httpLink, type TRPCClient } from '@trpc/client';
import type { AppRouter } from '@site/server/router';

export type { AppRouter };
export type SiteClient = TRPCClient<AppRouter>;

export type SiteClientOptions = {
  /** The site's address, e.g. `https://home.example.org` (the client calls `<url>/trpc`). */
  url: string;
  /** A personal API token (`site_...`) from the Account page or `npm run user -- token NAME`. */
  token: string;
  /** Another fetch (a proxy's, a test's); the global one by default. */
  fetch?: typeof fetch;
};

/**
 * The site's procedures, typed from the server's own router: `client.todo.add.mutate({ task })`,
 * `client.todo.list.query()`. Each call is one request as the OpenAPI document describes it (a query
 * is `GET /trpc/<name>?input=`, a mutation `POST /trpc/<name>`), with the token as a bearer; a refusal
 * rejects with a TRPCClientError whose `message` is the server's sentence and `data.httpStatus` its status.
 */
export function createSiteClient(options: SiteClientOptions): SiteClient {
  const base = options.url.replace(/\/+$/, '');
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${base}/trpc`,
        headers: { authorization: `Bearer ${options.token}` },
        ...(options.fetch ? { fetch: options.fetch } : {}),
      }),
    ],
  });
}
