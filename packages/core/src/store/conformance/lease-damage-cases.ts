import { createCompactor } from '../../compact/create-compactor';
import type { Message } from '../../message/message';
import type { CompactionStore } from '../compaction-store';
import {
  type AcquireLeaseResult,
  isLeasingStore,
  type LeasingCompactionStore,
} from '../leasing-compaction-store';
import { answers, check, same, sleep } from './conformance-assertions';
import type { ConformanceGroup } from './conformance-group';
import { conformanceState } from './conformance-state';
import { LEASE_DAMAGES, type LeaseDamage } from './lease-damage';

/**
 * Damaged lease bookkeeping heals: the next `acquireLease` answers and grants at once (a damaged
 * lease record or counter cannot back a write, so it holds nobody's lease), tokens keep growing
 * past the damage, the holder from before the damage is fenced, and the new holder can write.
 */
export function leaseDamageCases({ add, options }: ConformanceGroup): void {
  const leasing = (store: CompactionStore): store is LeasingCompactionStore => isLeasingStore(store);
  const damageLease = (store: CompactionStore, conversationId: string, damage: LeaseDamage) =>
    options.damageLease!(store, conversationId, damage);

  for (const { damage, description } of LEASE_DAMAGES) {
    add(
      `leasing heals ${description}`,
      'raw',
      leasing,
      async (store, id) => {
        const conversation = id();
        const before = await store.acquireLease(conversation, { holder: 'before', ttlMs: 30_000 });
        check(before.acquired, 'a free lease must be acquired');
        const written = await store.compareAndSet(conversation, conformanceState(1), {
          expectedRevision: 0,
          fencingToken: before.lease.token,
        });
        check(written.ok, "the holder's first write must succeed");
        if (!(await damageLease(store, conversation, damage))) return 'skipped';

        // The old holder's lease was 30 s long: a store must not make the conversation wait it out.
        const waitMs = options.shortLeaseMs * 20 + 2_000;
        const deadline = Date.now() + waitMs;
        let after: AcquireLeaseResult | undefined;
        while (Date.now() < deadline) {
          after = await answers(
            () => store.acquireLease(conversation, { holder: 'after', ttlMs: 30_000 }),
            `acquireLease must answer after ${description}`,
          );
          if (after.acquired) break;
          await sleep(Math.max(10, options.shortLeaseMs / 4));
        }
        check(after?.acquired, `the lease must be granted after ${description} (waited ${waitMs} ms)`);
        const { token } = after.lease;
        check(
          Number.isSafeInteger(token) && token > before.lease.token,
          `the token after ${description} must be a safe integer above ${before.lease.token}, got ${token}`,
        );
        same(
          (await store.read(conversation))?.state,
          conformanceState(1),
          'the damage and its repair must leave the state alone',
        );
        const stale = await store.compareAndSet(conversation, conformanceState(8), {
          expectedRevision: written.revision,
          fencingToken: before.lease.token,
        });
        check(!stale.ok, `the holder from before the damage must not write, got ${JSON.stringify(stale)}`);
        check(
          !(await store.renewLease(conversation, { token: before.lease.token, ttlMs: 30_000 })),
          'the holder from before the damage must not renew',
        );
        check(
          await store.renewLease(conversation, { token, ttlMs: 30_000 }),
          'the new holder must renew its lease',
        );
        const fresh = await store.compareAndSet(conversation, conformanceState(2), {
          expectedRevision: written.revision,
          fencingToken: token,
        });
        check(fresh.ok, `the new holder must write after ${description}, got ${JSON.stringify(fresh)}`);
        await store.releaseLease(conversation, { token });
        const next = await store.acquireLease(conversation, { holder: 'next', ttlMs: 30_000 });
        check(next.acquired && next.lease.token > token, 'the repaired counter must keep growing');
        const third = await store.compareAndSet(conversation, conformanceState(3), {
          expectedRevision: fresh.revision,
          fencingToken: next.lease.token,
        });
        check(third.ok, 'the next holder must write');
      },
      ['damageLease'],
    );
  }

  add(
    'a compactor summarizes a conversation whose lease bookkeeping was damaged, without store errors',
    'raw',
    leasing,
    async (store, id) => {
      const messages: Message[] = [];
      for (let turn = 0; turn < 12; turn++) {
        messages.push({ role: 'user', content: `Question ${turn}: ${'details '.repeat(120)}` });
        messages.push({ role: 'assistant', content: `Answer ${turn}: ${'explanation '.repeat(120)}` });
      }
      // A window the conversation fills to about 90%: over the compact threshold (85%).
      const contextWindow = Math.floor(createCompactor().estimator.countMessages(messages) / 0.9);
      let damaged = 0;
      for (const { damage, description } of LEASE_DAMAGES) {
        const conversation = id(damage);
        const lease = await store.acquireLease(conversation, { holder: 'before', ttlMs: 30_000 });
        check(lease.acquired, 'a free lease must be acquired');
        await store.releaseLease(conversation, { token: lease.lease.token });
        if (!(await damageLease(store, conversation, damage))) continue;
        damaged++;
        const storeErrors: unknown[] = [];
        const compactor = createCompactor({
          store,
          summarizer: () => 'Summary: the user asked twelve questions about details.',
          contextWindow,
          auditIdentifiers: false,
          summarizerMaxInputTokens: 1_000_000,
          summaryTimeouts: { foreground: options.shortLeaseMs * 20 + 2_000 },
          lease: { ttlMs: 30_000, pollIntervalMs: 20 },
          onEvent: (event) => {
            if (event.type === 'store-error') storeErrors.push(event);
          },
        });
        const result = await compactor.prepare(messages, { conversationId: conversation });
        check(result.stateChanged, `the compactor must summarize after ${description}`);
        same(await store.get(conversation), result.state, `the summary must be stored after ${description}`);
        same(storeErrors, [], `the store must not fail after ${description}`);
      }
      if (damaged === 0) return 'skipped';
    },
    ['damageLease'],
  );
}
