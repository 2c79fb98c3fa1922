import { storeConformanceCases } from './store-conformance-cases';
import type { StoreConformanceOptions } from './store-conformance-options';

/** What {@link checkCompactionStore} found. */
export interface StoreConformanceReport {
  passed: string[];
  /** Cases the store does not apply to (a capability it lacks, or no raw-value hooks). */
  skipped: string[];
  failed: { name: string; error: unknown }[];
}

/**
 * Runs every conformance case against a store, one after another, and reports. For a script or a
 * test runner without per-case tests; see `storeConformanceCases` to run them as separate tests.
 *
 * @example
 * const report = await checkCompactionStore({ createStore: () => new MyStore(client) });
 * if (report.failed.length > 0) console.error(report.failed);
 */
export async function checkCompactionStore(
  options: StoreConformanceOptions,
): Promise<StoreConformanceReport> {
  const report: StoreConformanceReport = { passed: [], skipped: [], failed: [] };
  for (const testCase of storeConformanceCases(options)) {
    try {
      const outcome = await testCase.run();
      (outcome === 'passed' ? report.passed : report.skipped).push(testCase.name);
    } catch (error) {
      report.failed.push({ name: testCase.name, error });
    }
  }
  return report;
}
