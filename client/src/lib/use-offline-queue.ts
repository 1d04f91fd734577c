import { useCallback, useEffect, useRef, useState } from 'react';
import type { AddHouseInput, CompleteHouseInput, UndoHouseInput } from '@site/contracts/house';
import type { AddTodoInput, UpdateTodoInput } from '@site/contracts/todo';
import type { ChoreDoneInput, ChoreUndoInput } from '@site/contracts/plan';
import { afterLoadWhenIdle } from './idle.ts';
import { isOnline, onOnlineChange } from './online.ts';
import {
  enqueue,
  flush,
  discardAccount,
  isOtherAccount,
  isRetryable,
  newClientId,
  pending,
  subscribeQueue,
  takeNotice,
  unsentMessage,
  withdraw,
  type Outcome,
  type QueueArea,
  type QueuedChange,
  type QueueProcedure,
} from './offline-queue.ts';
import type { QUEUE_INPUTS } from './offline-inputs.ts';
import { trpc } from './trpc.ts';

/** How often waiting changes are tried again while the page is open (besides the `online` event and page load). */
const RETRY_MS = 15_000;

/**
 * The queued procedures' input schemas (zod), in their own chunk: fetched once a list page has loaded
 * and the browser is idle (while the network is there, but out of the first screen's way: zod takes a
 * phone a while to start), so a change made offline can still be checked before it waits; a change
 * made before then loads them itself.
 */
let inputs: Promise<{ QUEUE_INPUTS: typeof QUEUE_INPUTS }> | undefined;
function loadInputs() {
  inputs ??= import('./offline-inputs.ts').catch((error: unknown) => {
    inputs = undefined;
    throw error;
  });
  return inputs;
}

/**
 * Why the change would be refused (the schema's first message), or undefined. When the schemas cannot
 * be had (the network went before their chunk came, moments after the page opened), the change waits
 * unchecked rather than being lost: the server checks it when it is sent, and a refusal is told then.
 */
export async function checkOffline(procedure: QueueProcedure, input: Record<string, unknown>, load = loadInputs): Promise<string | undefined> {
  const schemas = await load().catch(() => null);
  return schemas?.QUEUE_INPUTS[procedure].safeParse(input).error?.issues[0]?.message;
}

/** A message about what became of a change, shown on the page until dismissed. */
export type ChangeMessage = { id: string; text: string };

export type OfflineQueueOptions = {
  area: QueueArea;
  /** What to tell the member about a change's answer, or null for nothing (`queued`: it had waited in the queue). */
  describe: (change: QueuedChange, outcome: Outcome, queued: boolean) => string | null;
};

/**
 * A list page's writes through the offline queue (lib/offline-queue.ts). `submit` sends a change at
 * once when the browser is online and nothing older waits; otherwise, or when the sending meets no
 * server, the change waits in the queue (and `waiting` lists it, for the page's "Waiting" rows and its
 * "2 changes waiting" badge). A refusal of a change sent at once is thrown, as the mutation's was.
 * Waiting changes are sent on page load, when the site is reachable again and every RETRY_MS.
 */
export function useOfflineQueue(options: OfflineQueueOptions) {
  const { area } = options;
  // Changes are kept per account: the signed-in name, lower case (names are unique ignoring case).
  const account = trpc.auth.status.useQuery().data?.user?.toLowerCase() ?? null;
  const utils = trpc.useUtils();
  const calls = {
    /** Sends a change as its maker's (lib/trpc.ts: ACCOUNT_HEADER): refused under anyone else's session. */
    send(change: QueuedChange): Promise<unknown> {
      const input = change.input;
      const opts = { context: { account: change.account } };
      switch (change.procedure) {
        case 'house.add':
          return utils.client.house.add.mutate(input as AddHouseInput, opts);
        case 'house.complete':
          return utils.client.house.complete.mutate(input as CompleteHouseInput, opts);
        case 'house.undo':
          return utils.client.house.undo.mutate(input as UndoHouseInput, opts);
        case 'todo.add':
          return utils.client.todo.add.mutate(input as AddTodoInput, opts);
        case 'todo.update':
          return utils.client.todo.update.mutate(input as UpdateTodoInput, opts);
        case 'chores.done':
          return utils.client.chores.done.mutate(input as ChoreDoneInput, opts);
        case 'chores.undo':
          return utils.client.chores.undo.mutate(input as ChoreUndoInput, opts);
      }
    },
    /** The server says another account is signed in now: ask it who, so the page follows (lib/persist.ts drops the others' changes). */
    onOtherAccount: () => void utils.auth.status.invalidate(),
    /** After answers: the page reads its list again. */
    onAnswered: () => void (area === 'house' ? utils.house.list.invalidate() : area === 'chores' ? utils.chores.invalidate() : utils.todo.list.invalidate()),
  };
  const latest = useRef({ ...options, ...calls });
  useEffect(() => {
    latest.current = { ...options, ...calls };
  });
  const [waiting, setWaiting] = useState<QueuedChange[]>([]);
  const [messages, setMessages] = useState<ChangeMessage[]>([]);
  useEffect(() => afterLoadWhenIdle(() => void loadInputs().catch(() => {})), []);

  const tell = useCallback((change: QueuedChange, outcome: Outcome, queued: boolean) => {
    const text = latest.current.describe(change, outcome, queued);
    if (text !== null) setMessages((shown) => [...shown.filter((m) => m.id !== change.clientId), { id: change.clientId, text }]);
  }, []);

  // Changes of this account dropped unsent (it was signed out first) are told to it, and only to it.
  useEffect(() => {
    if (account === null) return;
    let current = true;
    void takeNotice(account).then((count) => {
      if (current && count > 0) setMessages((shown) => [...shown, { id: `unsent-${account}`, text: unsentMessage(count) }]);
    });
    return () => {
      current = false;
    };
  }, [account]);

  useEffect(() => {
    let current = true;
    const reread = () => {
      if (account === null) return setWaiting([]);
      void pending(account, area).then((changes) => current && setWaiting(changes));
    };
    reread();
    const unsubscribe = subscribeQueue(reread);
    return () => {
      current = false;
      unsubscribe();
    };
  }, [account, area]);

  const sendWaiting = useCallback(async () => {
    if (account === null || !isOnline()) return;
    const answered = await flush(
      account,
      area,
      (change) => latest.current.send(change),
      (change, outcome) => tell(change, outcome, true),
      () => latest.current.onOtherAccount(),
    );
    if (answered > 0) latest.current.onAnswered();
  }, [account, area, tell]);

  useEffect(() => {
    const send = () => void sendWaiting().catch(() => {});
    send();
    // Back online: the browser's `online` event, or the server answering again after calls that got
    // no answer (lib/online.ts), whichever comes first.
    const unsubscribe = onOnlineChange(() => {
      if (isOnline()) send();
    });
    const timer = setInterval(send, RETRY_MS);
    return () => {
      unsubscribe();
      clearInterval(timer);
    };
  }, [sendWaiting]);

  /** Makes a change: 'sent' when the server has applied it, 'queued' when it waits. */
  const submit = useCallback(
    async (procedure: QueueProcedure, input: Record<string, unknown>, label: string): Promise<'sent' | 'queued'> => {
      const clientId = newClientId();
      const change: QueuedChange = { clientId, account: account ?? '', procedure, input: { ...input, clientId }, label, createdAt: Date.now() };
      const sendNow = async () => {
        tell(change, { kind: 'applied', result: await latest.current.send(change) }, false);
        latest.current.onAnswered();
        return 'sent' as const;
      };
      if (account === null) return sendNow();
      // Sent at once only when nothing older waits: the queue keeps the order changes were made in.
      if (isOnline() && (await pending(account, area)).length === 0) {
        try {
          return await sendNow();
        } catch (error) {
          if (!isRetryable(error)) throw error;
          // Made here as this account while another is signed in: it waits as this account's (and is
          // dropped, told to its maker, once the page hears who is signed in).
          if (isOtherAccount(error)) latest.current.onOtherAccount();
        }
      }
      const refusal = await checkOffline(procedure, input);
      if (refusal !== undefined) throw new Error(refusal);
      await enqueue(change);
      void sendWaiting().catch(() => {});
      return 'queued';
    },
    [account, area, sendWaiting, tell],
  );

  const dismiss = useCallback((id: string) => setMessages((shown) => shown.filter((m) => m.id !== id)), []);
  return { waiting, submit, withdraw, messages, dismiss };
}

/**
 * The signed-in account's waiting changes, all areas (undefined until read; 0 when signed out), and
 * how to drop them: the logout page asks before a sign-out would lose them.
 */
export function useWaitingChanges(): { count: number | undefined; discard: () => Promise<unknown> } {
  const status = trpc.auth.status.useQuery();
  const account = status.data === undefined ? undefined : (status.data.user?.toLowerCase() ?? null);
  const [count, setCount] = useState<number | undefined>(undefined);
  useEffect(() => {
    if (account === undefined) return;
    if (account === null) return setCount(0);
    let current = true;
    const reread = () => void pending(account).then((changes) => current && setCount(changes.length), () => current && setCount(0));
    reread();
    const unsubscribe = subscribeQueue(reread);
    return () => {
      current = false;
      unsubscribe();
    };
  }, [account]);
  const discard = useCallback(() => (account ? discardAccount(account) : Promise.resolve(0)), [account]);
  return { count, discard };
}
