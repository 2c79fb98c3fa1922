import { InvalidConfigError } from '../errors/invalid-config-error';
import type { ToolCallPart } from '../message/message';
import {
  DEFAULT_TOOL_FAMILIES,
  effectsForFamily,
  familyIndex,
  familyOf,
  type ToolFamily,
} from './default-tool-mapping';
import type { ToolEffect, ToolMapping } from './tool-effect';

/** Options of {@link createToolMapping}. */
export interface CreateToolMappingOptions {
  /**
   * Your tool names by family, on top of the defaults ({@link DEFAULT_TOOL_FAMILIES}); a name listed
   * here wins over a default family. The path is read from the usual arguments (`path`,
   * `file_path`, `filePath`, `target_file`, …; `paths` for multi-file reads, `source` and
   * `destination` for moves, `command` for shells, the patch text for patches). Families: `read`,
   * `write`, `edit`, `delete`, `move`, `mkdir`, `list`, `editor` (a `command` argument says which:
   * `view`, `create`, `str_replace`, `insert`), `patch`, `shell`.
   * @default {}
   */
  tools?: Partial<Record<ToolFamily, readonly string[]>>;
  /**
   * Your own mapping, asked first: return the effects of the calls it knows (`[]` for "touches no
   * file") and `undefined` for the rest, which go to the families.
   * @default none
   */
  map?: ToolMapping;
  /**
   * Start from the default families. `false`: only `tools` and `map` are known.
   * @default true
   */
  defaults?: boolean;
}

const FAMILIES: readonly ToolFamily[] = Object.keys(DEFAULT_TOOL_FAMILIES) as ToolFamily[];

/**
 * A tool mapping that knows your tools too, e.g.
 * `createToolMapping({ tools: { read: ['open_doc'], write: ['save_doc'] } })`, or with a function
 * for tools whose arguments the defaults cannot read:
 * `createToolMapping({ map: (call) => call.toolName === 'fs' ? [{ kind: 'read', path: call.input.p }] : undefined })`.
 *
 * @throws {InvalidConfigError} when `tools` names an unknown family or holds something other than
 * tool names, or `map` is not a function.
 */
export function createToolMapping({
  tools = {},
  map,
  defaults = true,
}: CreateToolMappingOptions = {}): ToolMapping {
  if (tools === null || typeof tools !== 'object') {
    throw new InvalidConfigError({
      option: 'tools',
      value: tools,
      message: 'must be an object of tool names by family',
    });
  }
  for (const [family, names] of Object.entries(tools)) {
    if (!FAMILIES.includes(family as ToolFamily)) {
      throw new InvalidConfigError({
        option: `tools.${family}`,
        value: names,
        message: `is not a tool family (one of ${FAMILIES.join(', ')})`,
      });
    }
    if (!Array.isArray(names) || names.some((name) => typeof name !== 'string')) {
      throw new InvalidConfigError({
        option: `tools.${family}`,
        value: names,
        message: 'must be a list of tool names',
      });
    }
  }
  if (map !== undefined && typeof map !== 'function') {
    throw new InvalidConfigError({ option: 'map', value: map, message: 'must be a function' });
  }
  const index = familyIndex(defaults ? DEFAULT_TOOL_FAMILIES : {});
  for (const [name, family] of familyIndex(tools)) index.set(name, family);
  return (call: ToolCallPart): readonly ToolEffect[] | undefined => {
    const own = map?.(call);
    if (own !== undefined && own !== null) return own;
    return effectsForFamily(familyOf(call.toolName, index), call);
  };
}
