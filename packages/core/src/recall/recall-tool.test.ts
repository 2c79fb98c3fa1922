import { describe, expect, it } from 'vitest';
import { RECALL_TOOL_DESCRIPTION, RECALL_TOOL_NAME, recallToolInputSchema } from './recall-tool';

describe('the recall tool definition', () => {
  it('is one name, one description and a plain JSON Schema object', () => {
    expect(RECALL_TOOL_NAME).toBe('spillway_recall');
    expect(RECALL_TOOL_DESCRIPTION).toMatch(/`ref`/);
    expect(RECALL_TOOL_DESCRIPTION).toMatch(/`search`/);
    // A plain object: it survives a JSON round trip unchanged (what MCP and jsonSchema() need).
    expect(JSON.parse(JSON.stringify(recallToolInputSchema))).toEqual(recallToolInputSchema);
    expect(Object.keys(recallToolInputSchema.properties).sort()).toEqual([
      'length',
      'offset',
      'ref',
      'search',
    ]);
    expect(recallToolInputSchema.properties.offset).toMatchObject({ type: 'integer', minimum: 0 });
    expect(recallToolInputSchema.properties.length).toMatchObject({ type: 'integer', minimum: 1 });
  });
});
