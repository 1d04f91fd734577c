/// <reference lib="dom" />
/**
 * bench:lighthouse's bare-libraries page: the libraries of the app's shell alone (React 19, react-dom,
 * react-router-dom's declarative routes, react-query and the tRPC client), one heading. Built once by
 * the benchmark (bare-page.ts) and measured interleaved with the site's pages: each page's performance
 * is printed as a ratio to this page's in the same run, a figure that holds on a busy machine.
 */
import { createElement as h, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCReact, httpBatchLink } from '@trpc/react-query';
import type { AppRouter } from '@site/server/router';

const trpc = createTRPCReact<AppRouter>();
const queryClient = new QueryClient();
const trpcClient = trpc.createClient({ links: [httpBatchLink({ url: '/trpc' })] });
const root = document.getElementById('root');
if (!root) throw new Error('no #root');

createRoot(root).render(
  h(
    StrictMode,
    null,
    h(trpc.Provider, {
      client: trpcClient,
      queryClient,
      children: h(QueryClientProvider, { client: queryClient }, h(BrowserRouter, null, h(Routes, null, h(Route, { path: '*', element: h('h1', null, 'Bare libraries') })))),
    }),
  ),
);
