import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  closeQueueForTests,
  discardAccount,
  dropOtherAccounts,
  enqueue,
  flush,
  isRetryable,
  newClientId,
  pending,
  subscribeQueue,
  takeNotice,
  unsentMessage,
  withdraw,
  type Outcome,
  type QueuedChange,
} from './offline-queue.ts';

let n = 0;
function change(account: string, procedure: QueuedChange['procedure'], label: string, input: Record<string, unknown> = {}): QueuedChange {
  const clientId = newClientId();
  return { clientId, account, procedure, input: { ...input, clientId }, label, createdAt: ++n };
}
/** An error as tRPC's client gives it: with the answer's HTTP status, or none when no server answered. */
const answered = (httpStatus: number, message: string) => Object.assign(new Error(message), { data: { httpStatus } });
const networkDown = () => new TypeError('Failed to fetch');

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});
afterEach(async () => {
  await closeQueueForTests();
});

describe('offline queue', () => {
  it('keeps changes in the order they were made, per account and area', async () => {
    const a = [change('ann', 'house.add', 'Milk'), change('ann', 'todo.add', 'Call'), change('ann', 'house.complete', 'Bread', { id: 3 })];
    const b = change('bob', 'house.add', 'Soap');
    await enqueue(a[0]!);
    await enqueue(b);
    await enqueue(a[1]!);
    await enqueue(a[2]!);
    expect((await pending('ann')).map((c) => c.label)).toEqual(['Milk', 'Call', 'Bread']);
    expect((await pending('ann', 'house')).map((c) => c.label)).toEqual(['Milk', 'Bread']);
    expect(await pending('bob')).toEqual([b]);
  });

  it("sends only the account's own changes, in order, each removed once answered", async () => {
    await enqueue(change('ann', 'house.add', 'Milk'));
    await enqueue(change('bob', 'house.add', 'Soap'));
    await enqueue(change('ann', 'house.add', 'Bread'));
    const sent: string[] = [];
    const outcomes: [string, Outcome][] = [];
    const count = await flush(
      'ann',
      'house',
      async (c) => {
        sent.push(c.label);
        expect((await pending('ann')).map((p) => p.label)).toContain(c.label);
        return { id: sent.length };
      },
      (c, o) => outcomes.push([c.label, o]),
    );
    expect(count).toBe(2);
    expect(sent).toEqual(['Milk', 'Bread']);
    expect(outcomes).toEqual([
      ['Milk', { kind: 'applied', result: { id: 1 } }],
      ['Bread', { kind: 'applied', result: { id: 2 } }],
    ]);
    expect(await pending('ann')).toEqual([]);
    expect((await pending('bob')).map((c) => c.label)).toEqual(['Soap']);
  });

  it('stops at a change that finds no server and keeps it and the later ones for the retry, same ids', async () => {
    const first = change('ann', 'house.add', 'Milk');
    await enqueue(first);
    await enqueue(change('ann', 'house.add', 'Bread'));
    const send = vi.fn().mockRejectedValueOnce(networkDown()).mockResolvedValue({});
    expect(await flush('ann', 'house', send, () => {})).toBe(0);
    expect(send).toHaveBeenCalledTimes(1);
    expect((await pending('ann')).map((c) => c.label)).toEqual(['Milk', 'Bread']);
    expect(await flush('ann', 'house', send, () => {})).toBe(2);
    expect(send.mock.calls.map(([c]) => (c as QueuedChange).input.clientId)).toEqual([first.clientId, first.clientId, expect.any(String)]);
    expect(await pending('ann')).toEqual([]);
  });

  it('drops a refused change and tells why, then goes on', async () => {
    await enqueue(change('ann', 'todo.update', 'Call', { id: 9, status: 'Complete' }));
    await enqueue(change('ann', 'todo.add', 'Next'));
    const outcomes: Outcome[] = [];
    const send = vi.fn().mockRejectedValueOnce(answered(404, 'No such task')).mockResolvedValue({ id: 2 });
    expect(await flush('ann', 'todo', send, (_c, o) => outcomes.push(o))).toBe(2);
    expect(outcomes).toEqual([{ kind: 'refused', message: 'No such task' }, { kind: 'applied', result: { id: 2 } }]);
    expect(await pending('ann')).toEqual([]);
  });

  it('tells what is a refusal and what is worth another try', () => {
    expect(isRetryable(networkDown())).toBe(true);
    expect(isRetryable(answered(503, 'restarting'))).toBe(true);
    expect(isRetryable(answered(401, 'signed out'))).toBe(true);
    expect(isRetryable(answered(400, 'Task may not be empty'))).toBe(false);
    expect(isRetryable(answered(404, 'No such task'))).toBe(false);
  });

  it('lets two senders at once send each change once', async () => {
    for (const label of ['a', 'b', 'c']) await enqueue(change('ann', 'house.add', label));
    const sent: string[] = [];
    const send = async (c: QueuedChange) => {
      sent.push(c.clientId);
      await new Promise((r) => setTimeout(r, 5));
    };
    await Promise.all([flush('ann', 'house', send, () => {}), flush('ann', 'house', send, () => {})]);
    expect(sent).toHaveLength(3);
    expect(new Set(sent).size).toBe(3);
  });

  it('takes back a change still waiting, but not one already sent', async () => {
    const complete = change('ann', 'house.complete', 'Bread', { id: 2 });
    await enqueue(complete);
    expect(await withdraw(complete.clientId)).toBe(true);
    expect(await pending('ann')).toEqual([]);
    const sent = change('ann', 'house.complete', 'Milk', { id: 1 });
    await enqueue(sent);
    await flush('ann', 'house', async () => ({}), () => {});
    expect(await withdraw(sent.clientId)).toBe(false);
  });

  it("keeps a change the server refuses under another account's session, and says so", async () => {
    await enqueue(change('ann', 'todo.add', 'Private'));
    const other = vi.fn();
    const outcomes: Outcome[] = [];
    const sent = await flush(
      'ann',
      'todo',
      () => Promise.reject(answered(412, 'This change was made by another account')),
      (_c, o) => outcomes.push(o),
      other,
    );
    expect([sent, outcomes, other.mock.calls.length]).toEqual([0, [], 1]);
    expect((await pending('ann')).map((c) => c.label)).toEqual(['Private']);
  });

  it("keeps only the signed-in account's changes; the others leave, counted for their maker alone", async () => {
    await enqueue(change('ann', 'todo.add', 'Private'));
    await enqueue(change('ann', 'house.add', 'Milk'));
    await enqueue(change('bob', 'house.add', 'Soap'));
    expect(await dropOtherAccounts('bob')).toBe(2);
    expect(await pending('ann')).toEqual([]);
    expect((await pending('bob')).map((c) => c.label)).toEqual(['Soap']);
    // Signed out: nobody's stay.
    expect(await dropOtherAccounts(null)).toBe(1);
    expect(await takeNotice('carl')).toBe(0);
    expect(await takeNotice('ann')).toBe(2);
    expect(await takeNotice('ann')).toBe(0);
    expect(await takeNotice('bob')).toBe(1);
    expect(unsentMessage(2)).toBe('2 changes you made offline on this device were not sent: you were signed out before they could be. Make them again if still needed.');
    // Discarded on purpose: gone, nothing to tell.
    await enqueue(change('ann', 'todo.add', 'Other'));
    expect(await discardAccount('ann')).toBe(1);
    expect([await pending('ann'), await takeNotice('ann')]).toEqual([[], 0]);
  });

  it('tells listeners when the queue changes, and makes v4 UUIDs', async () => {
    const listener = vi.fn();
    const stop = subscribeQueue(listener);
    await enqueue(change('ann', 'house.add', 'Milk'));
    expect(listener).toHaveBeenCalled();
    stop();
    expect(newClientId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
