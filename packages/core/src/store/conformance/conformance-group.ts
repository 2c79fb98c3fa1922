import type { CompactionStore } from '../compaction-store';
import type { StoreConformanceOptions } from './store-conformance-options';

/** The part of the contract a case checks. */
export type StoreCapability = 'basic' | 'versioned' | 'leasing' | 'raw';

/** One conformance check. */
export interface StoreConformanceCase {
  name: string;
  capability: StoreCapability;
  /**
   * Runs the check: resolves `'passed'`, or `'skipped'` when the store lacks the capability (or
   * the hooks it needs were not given); rejects with an `Error` saying what broke the contract.
   */
  run(): Promise<'passed' | 'skipped'>;
}

/** The hooks of {@link StoreConformanceOptions} a case can need. */
export type ConformanceHook = 'writeRawValue' | 'readRawValue' | 'writeRawState' | 'damageLease';

/**
 * How a group of cases adds one (see `basic-cases.ts` and its neighbours). The body rejects when the
 * store breaks the contract, and may resolve `'skipped'` when the store cannot hold what it checks.
 */
export type AddConformanceCase = <S extends CompactionStore>(
  name: string,
  capability: StoreCapability,
  supports: (store: CompactionStore) => store is S,
  body: (store: S, id: (suffix?: string) => string) => Promise<unknown>,
  needs?: readonly ConformanceHook[],
) => void;

/** What a group of cases is given: how to add a case, and the options with their defaults. */
export interface ConformanceGroup {
  add: AddConformanceCase;
  options: StoreConformanceOptions & Required<Pick<StoreConformanceOptions, 'shortLeaseMs' | 'concurrency'>>;
}
