import { describe, it } from 'vitest';
import { MemoryCompactionStore } from '../memory-compaction-store';
import { storeConformanceCases } from './store-conformance-cases';

describe('MemoryCompactionStore conformance', () => {
  for (const testCase of storeConformanceCases({ createStore: () => new MemoryCompactionStore() })) {
    it(`${testCase.capability}: ${testCase.name}`, async (context) => {
      if ((await testCase.run()) === 'skipped') context.skip();
    });
  }
});
