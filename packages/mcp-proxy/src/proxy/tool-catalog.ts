import { AjvJsonSchemaValidator, type Client, ResultSchema, type Tool } from '../sdk/mcp-sdk';

/** Pages of `tools/list` read, at most, when the proxy lists the tools itself. */
const MAX_TOOL_PAGES = 100;

/**
 * What the session knows of the upstream's tools: each tool's `outputSchema` (and a validator for
 * it, made once), and the tools whose structured content the proxy had to drop, whose schema it
 * then stops listing (a client would reject a result without the structured content it promises).
 */
export class ToolCatalog {
  private readonly outputSchemas = new Map<string, Tool['outputSchema']>();
  private readonly validators = new Map<string, (value: unknown) => boolean>();
  private readonly droppedOutputSchemas = new Set<string>();
  private readonly validatorFactory = new AjvJsonSchemaValidator();
  /** Whether every tool has been seen since the list last changed. */
  private known = false;

  /** Remembers a tool's `outputSchema`; strips it when the proxy had to drop that tool's structured content. */
  record(tool: Tool): Tool {
    if (tool === null || typeof tool !== 'object' || typeof tool.name !== 'string') return tool;
    if (tool.outputSchema === undefined) this.outputSchemas.delete(tool.name);
    else if (this.outputSchemas.get(tool.name) !== tool.outputSchema) {
      this.outputSchemas.set(tool.name, tool.outputSchema);
      this.validators.delete(tool.name);
    }
    if (!this.droppedOutputSchemas.has(tool.name) || tool.outputSchema === undefined) return tool;
    const { outputSchema: _dropped, ...rest } = tool;
    return rest as Tool;
  }

  /** Every tool has been seen (a `tools/list` without cursor or next page). */
  markKnown(): void {
    this.known = true;
  }

  /** The tool list changed (or the upstream is a new connection): what was known is stale. */
  forget(): void {
    this.known = false;
    this.outputSchemas.clear();
    this.validators.clear();
  }

  /**
   * Records that the proxy dropped `name`'s structured content. Returns whether this is news for a
   * tool whose `outputSchema` the client has seen (the client should then list the tools again).
   */
  dropOutputSchema(name: string): boolean {
    if (this.droppedOutputSchemas.has(name)) return false;
    this.droppedOutputSchemas.add(name);
    return this.outputSchemas.has(name);
  }

  /** A validator for the tool's `outputSchema`, listing the tools upstream first if not known yet. */
  async validatorFor(
    name: string,
    { client, signal, timeout }: { client: Client | undefined; signal: AbortSignal; timeout: number },
  ): Promise<((value: unknown) => boolean) | undefined> {
    if (!this.known && client !== undefined) {
      let cursor: unknown;
      for (let page = 0; page < MAX_TOOL_PAGES; page++) {
        const result = await client.request(
          { method: 'tools/list', params: cursor === undefined ? {} : { cursor } } as never,
          ResultSchema,
          { signal, timeout },
        );
        for (const tool of ((result as { tools?: Tool[] }).tools ?? []) as Tool[]) this.record(tool);
        cursor = (result as { nextCursor?: unknown }).nextCursor;
        if (cursor === undefined) break;
      }
      this.known = true;
    }
    const schema = this.outputSchemas.get(name);
    if (schema === undefined) return undefined;
    let validate = this.validators.get(name);
    if (validate === undefined) {
      try {
        const validator = this.validatorFactory.getValidator(schema as never);
        validate = (value: unknown) => validator(value).valid;
      } catch {
        validate = () => false;
      }
      this.validators.set(name, validate);
    }
    return validate;
  }
}
