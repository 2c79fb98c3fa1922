import { basicCases } from './basic-cases';
import type { AddConformanceCase, ConformanceGroup, StoreConformanceCase } from './conformance-group';
import { leaseDamageCases } from './lease-damage-cases';
import { leasingCases } from './leasing-cases';
import { sharedCompactorCases } from './shared-compactor-cases';
import type { StoreConformanceOptions } from './store-conformance-options';
import { unreadableValueCases } from './unreadable-value-cases';
import { versionedCases } from './versioned-cases';

let runCounter = 0;

/**
 * The store contract as a list of checks, framework-free: run them under any test runner, or all at
 * once with `checkCompactionStore`. The same list runs against `MemoryCompactionStore`,
 * `RedisCompactionStore` and `PostgresCompactionStore` in Spillway's own tests.
 *
 * @example
 * // vitest
 * for (const testCase of storeConformanceCases({ createStore: () => new MyStore(client) })) {
 *   it(testCase.name, async (context) => {
 *     if ((await testCase.run()) === 'skipped') context.skip();
 *   });
 * }
 */
export function storeConformanceCases({
  shortLeaseMs = 200,
  concurrency = 16,
  ...hooks
}: StoreConformanceOptions): StoreConformanceCase[] {
  const options = { ...hooks, shortLeaseMs, concurrency };
  const { createStore, closeStore } = options;
  const run = ++runCounter;
  const prefix = `spillway-conformance-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}-${run}`;
  let caseCounter = 0;
  const cases: StoreConformanceCase[] = [];

  const add: AddConformanceCase = (name, capability, supports, body, needs = []) => {
    const index = ++caseCounter;
    const hooksNeeded =
      capability === 'raw' && needs.length === 0 ? (['writeRawValue', 'readRawValue'] as const) : needs;
    cases.push({
      name,
      capability,
      async run() {
        const store = await createStore();
        try {
          if (!supports(store)) return 'skipped';
          if (hooksNeeded.some((hook) => options[hook] === undefined)) return 'skipped';
          const ids: string[] = [];
          const id = (suffix = '') => {
            const value = `${prefix}:${index}${suffix === '' ? '' : `:${suffix}`}`;
            ids.push(value);
            return value;
          };
          try {
            return (await body(store, id)) === 'skipped' ? 'skipped' : 'passed';
          } finally {
            for (const conversationId of new Set(ids)) await store.delete(conversationId).catch(() => {});
          }
        } finally {
          await closeStore?.(store);
        }
      },
    });
  };

  const group: ConformanceGroup = { add, options };
  basicCases(group);
  versionedCases(group);
  leasingCases(group);
  sharedCompactorCases(group);
  unreadableValueCases(group);
  leaseDamageCases(group);
  return cases;
}
