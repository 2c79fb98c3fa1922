import type { CompactionStore } from '../compaction-store';
import type { LeaseDamage } from './lease-damage';

/** Options of `storeConformanceCases`. */
export interface StoreConformanceOptions {
  /**
   * Makes the store under test. Called once per case; return a new instance or the same one (every
   * case uses conversation ids of its own, so a shared server is fine).
   */
  createStore: () => CompactionStore | Promise<CompactionStore>;
  /**
   * Called after each case with the store it made (close connections here).
   * @default nothing
   */
  closeStore?: (store: CompactionStore) => void | Promise<void>;
  /**
   * Writes `value` verbatim under the conversation's key, bypassing the store, as a corrupt or
   * foreign writer would. Given, the cases also check that such values are reported and never
   * overwritten.
   * @default undefined (those cases are skipped)
   */
  writeRawValue?: (store: CompactionStore, conversationId: string, value: string) => Promise<void>;
  /**
   * Reads the raw value under the conversation's key back (pairs with `writeRawValue` and
   * `writeRawState`): the cases compare it before and after a refused write.
   * @default undefined
   */
  readRawValue?: (store: CompactionStore, conversationId: string) => Promise<string | undefined>;
  /**
   * Writes a state's JSON text (`stateText`, usually not one this version reads) with `revision`
   * under the conversation's key, laid out as the store lays out a state it wrote itself (Redis:
   * inside the envelope; Postgres: the state and revision columns), bypassing the store. Given
   * (with `readRawValue`), the cases check that `compareAndSet` refuses to overwrite an unreadable
   * state at every expected revision, the one the value carries included.
   * @default undefined (those cases are skipped)
   */
  writeRawState?: (
    store: CompactionStore,
    conversationId: string,
    raw: { stateText: string; revision: number },
  ) => Promise<void>;
  /**
   * Damages the conversation's lease record or fencing counter, bypassing the store (see
   * {@link LeaseDamage}). Resolve `false` for damage the store's layout cannot hold (a non-numeric
   * counter in an integer column). Given, the cases check that leasing heals: the next
   * `acquireLease` answers, grants a larger token, and the new holder can write.
   * @default undefined (those cases are skipped)
   */
  damageLease?: (store: CompactionStore, conversationId: string, damage: LeaseDamage) => Promise<boolean>;
  /**
   * The lease time used by the expiry cases, in milliseconds. Keep it short; the cases wait a few
   * times this long.
   * @default 200
   */
  shortLeaseMs?: number;
  /**
   * How many concurrent writers and lease takers the race cases start.
   * @default 16
   */
  concurrency?: number;
}
