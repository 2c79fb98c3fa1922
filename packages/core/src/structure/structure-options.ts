import { InvalidConfigError } from '../errors/invalid-config-error';
import type { ToolCallPart } from '../message/message';
import type { ClusterToolResultsOptions } from './cluster-tool-results';
import { type CollapseExchangesOptions, checkCollapseOptions } from './collapse-exchanges';
import { type CreateToolMappingOptions, createToolMapping } from './create-tool-mapping';
import { defaultToolMapping } from './default-tool-mapping';
import type { ToolMapping } from './tool-effect';

/** How stale and duplicate tool results are found (the `supersedeToolResults` option). */
export interface SupersedeOptions {
  /**
   * Your tool names by family, on top of the default mapping, e.g.
   * `{ read: ['open_doc'], write: ['save_doc'], list: ['browse'] }` (see `createToolMapping`).
   * @default {}
   */
  tools?: CreateToolMappingOptions['tools'];
  /**
   * Your own mapping from a call to what it does to files, asked first: effects for the calls it
   * knows, `undefined` for the rest (they go to the default mapping and `tools`).
   * @default none
   */
  toolMapping?: ToolMapping;
  /**
   * The target of calls no mapping knows: a later call of the same tool with the same key
   * supersedes an earlier one.
   * @default the canonical JSON of the input (identical calls only)
   */
  targetKey?: (call: ToolCallPart) => string | undefined;
  /**
   * Results shorter than this many characters are left alone.
   * @default 200
   */
  minChars?: number;
  /**
   * Also replace results identical to an earlier result of the same tool (the earliest is kept).
   * @default true
   */
  dedupe?: boolean;
}

/** How short exchanges are collapsed (the `collapseExchanges` option). */
export type CollapseOptions = Omit<CollapseExchangesOptions, 'before'>;

/** How near-duplicate results are clustered (the `clusterToolResults` option). */
export type ClusterOptions = Omit<ClusterToolResultsOptions, 'before'>;

/** The structural stages with their options resolved; `false` for a stage turned off. */
export interface ResolvedStructureOptions {
  supersede:
    | {
        toolMapping: ToolMapping;
        targetKey: ((call: ToolCallPart) => string | undefined) | undefined;
        minChars: number;
        dedupe: boolean;
      }
    | false;
  collapse: Required<CollapseOptions> | false;
  cluster: ClusterOptions | false;
}

/**
 * Resolves and checks the options of the structural stages.
 * @throws {InvalidConfigError} naming the first bad option.
 */
export function resolveStructureOptions({
  supersedeToolResults = true,
  collapseExchanges = false,
  clusterToolResults = true,
}: {
  supersedeToolResults?: boolean | SupersedeOptions;
  collapseExchanges?: boolean | CollapseOptions;
  clusterToolResults?: boolean | ClusterOptions;
}): ResolvedStructureOptions {
  const supersede = stage('supersedeToolResults', supersedeToolResults);
  const collapse = stage('collapseExchanges', collapseExchanges);
  const cluster = stage('clusterToolResults', clusterToolResults);
  return {
    supersede: supersede === false ? false : resolveSupersede(supersede),
    collapse: collapse === false ? false : resolveCollapse(collapse),
    cluster: cluster === false ? false : resolveCluster(cluster),
  };
}

function stage<T extends object>(option: string, value: boolean | T): T | false {
  if (value === false) return false;
  if (value === true) return {} as T;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidConfigError({ option, value, message: 'must be true, false or an object of options' });
  }
  return value;
}

function resolveSupersede({
  tools,
  toolMapping,
  targetKey,
  minChars = 200,
  dedupe = true,
}: SupersedeOptions) {
  const wrap = (error: unknown): never => {
    if (InvalidConfigError.isInstance(error)) {
      throw new InvalidConfigError({
        option: `supersedeToolResults.${error.option === 'map' ? 'toolMapping' : error.option}`,
        value: error.value,
        message: ownMessage(error),
      });
    }
    throw error;
  };
  let mapping: ToolMapping = defaultToolMapping;
  if (tools !== undefined || toolMapping !== undefined) {
    try {
      mapping = createToolMapping({ tools, map: toolMapping });
    } catch (error) {
      wrap(error);
    }
  }
  if (targetKey !== undefined && typeof targetKey !== 'function') {
    throw new InvalidConfigError({
      option: 'supersedeToolResults.targetKey',
      value: targetKey,
      message: 'must be a function',
    });
  }
  if (typeof minChars !== 'number' || Number.isNaN(minChars) || minChars < 0) {
    throw new InvalidConfigError({
      option: 'supersedeToolResults.minChars',
      value: minChars,
      message: 'must be a number of characters, 0 or more',
    });
  }
  return { toolMapping: mapping, targetKey, minChars, dedupe: dedupe !== false };
}

function resolveCollapse({
  maxChars = 400,
  minExchanges = 2,
  assistantChars = 160,
}: CollapseOptions): Required<CollapseOptions> {
  try {
    checkCollapseOptions({ before: 0, maxChars, minExchanges, assistantChars });
  } catch (error) {
    if (!InvalidConfigError.isInstance(error)) throw error;
    throw new InvalidConfigError({
      option: `collapseExchanges.${error.option}`,
      value: error.value,
      message: ownMessage(error),
    });
  }
  return { maxChars, minExchanges, assistantChars };
}

function resolveCluster({ similarity, minChars, maxNoteShare }: ClusterOptions): ClusterOptions {
  const check = (
    option: string,
    value: number | undefined,
    ok: (value: number) => boolean,
    range: string,
  ) => {
    if (value !== undefined && (typeof value !== 'number' || !ok(value))) {
      throw new InvalidConfigError({
        option: `clusterToolResults.${option}`,
        value,
        message: `must be ${range}`,
      });
    }
  };
  check('similarity', similarity, (value) => value > 0 && value <= 1, 'a share above 0 and at most 1');
  check('minChars', minChars, (value) => value >= 0, 'a number of characters, 0 or more');
  check('maxNoteShare', maxNoteShare, (value) => value > 0 && value < 1, 'a share above 0 and below 1');
  return {
    ...(similarity === undefined ? {} : { similarity }),
    ...(minChars === undefined ? {} : { minChars }),
    ...(maxNoteShare === undefined ? {} : { maxNoteShare }),
  };
}

/** The message of an `InvalidConfigError` without its `Invalid option "…": ` prefix. */
function ownMessage(error: InvalidConfigError): string {
  return error.message.replace(/^Invalid option "[^"]*": /, '');
}
