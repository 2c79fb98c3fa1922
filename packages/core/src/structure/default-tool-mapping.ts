import type { ToolCallPart } from '../message/message';
import { joinPath, normalizePath } from './file-path';
import { patchEffects } from './patch-effects';
import { shellEffects } from './shell-effects';
import type { ToolEffect } from './tool-effect';

/** The families of tools the default mapping knows, by what they do. */
export type ToolFamily =
  | 'read'
  | 'write'
  | 'edit'
  | 'delete'
  | 'move'
  | 'mkdir'
  | 'list'
  | 'editor'
  | 'patch'
  | 'shell';

/**
 * Tool names of each family, as agents and MCP servers name them (matched after
 * {@link normalizeToolName}: `Read`, `readFile`, `mcp__filesystem__read_file` are all `read_file`
 * or `read`). Sources: Claude Code (`Read`, `Write`, `Edit`, `MultiEdit`, `NotebookEdit`, `LS`,
 * `Glob`, `Bash`), the MCP filesystem server (`read_text_file`, `read_media_file`,
 * `read_multiple_files`, `write_file`, `edit_file`, `create_directory`, `list_directory`,
 * `list_directory_with_sizes`, `directory_tree`, `move_file`, `search_files`), Anthropic's text
 * editor tool (`str_replace_based_edit_tool`, `str_replace_editor`), OpenAI Codex (`shell`,
 * `apply_patch`), Cursor (`read_file`, `edit_file`, `search_replace`, `delete_file`, `list_dir`,
 * `run_terminal_cmd`), Cline and Roo (`write_to_file`, `replace_in_file`, `list_files`,
 * `execute_command`, `apply_diff`), Gemini CLI (`read_many_files`, `replace`, `run_shell_command`),
 * Continue, Goose and OpenHands.
 */
export const DEFAULT_TOOL_FAMILIES: Readonly<Record<ToolFamily, readonly string[]>> = {
  read: [
    'read_file',
    'read',
    'read_text_file',
    'read_media_file',
    'view_file',
    'open_file',
    'cat_file',
    'read_multiple_files',
    'read_many_files',
  ],
  write: [
    'write_file',
    'write',
    'create_file',
    'create_new_file',
    'write_to_file',
    'save_file',
    'overwrite_file',
    'file_write',
  ],
  edit: [
    'edit_file',
    'edit',
    'str_replace',
    'search_replace',
    'search_and_replace',
    'replace',
    'replace_in_file',
    'multi_edit',
    'multiedit',
    'edit_existing_file',
    'notebook_edit',
    'apply_diff',
    'insert_content',
    'append_file',
    'append_to_file',
    'file_edit',
  ],
  delete: ['delete_file', 'remove_file', 'delete'],
  move: ['move_file', 'rename_file', 'move', 'rename'],
  mkdir: ['create_directory', 'make_directory', 'mkdir'],
  list: [
    'list_directory',
    'list_directory_with_sizes',
    'list_dir',
    'ls',
    'list_files',
    'list',
    'directory_tree',
    'glob',
    'search_files',
    'find_files',
  ],
  editor: ['str_replace_editor', 'str_replace_based_edit_tool', 'text_editor'],
  patch: ['apply_patch', 'patch'],
  shell: [
    'bash',
    'shell',
    'sh',
    'zsh',
    'run_command',
    'run_shell_command',
    'run_terminal_cmd',
    'run_terminal_command',
    'execute_command',
    'exec_command',
    'exec',
    'execute',
    'terminal',
    'command',
    'local_shell',
    'run_in_terminal',
    'shell_command',
    'container_exec',
  ],
};

/** Argument names that hold the file or directory a call works on, first match wins. */
export const PATH_ARGUMENTS: readonly string[] = [
  'path',
  'file_path',
  'filePath',
  'filepath',
  'file',
  'filename',
  'fileName',
  'target_file',
  'targetFile',
  'absolute_path',
  'absolutePath',
  'notebook_path',
  'relative_workspace_path',
  'dirPath',
  'dir_path',
  'directory',
  'dir',
  'target_directory',
  'uri',
];

/** Arguments that make a read show only part of a file. */
const RANGE_ARGUMENTS = [
  'offset',
  'limit',
  'start_line',
  'end_line',
  'startLine',
  'endLine',
  'start_line_one_indexed',
  'end_line_one_indexed',
  'head',
  'tail',
  'line_start',
  'line_end',
  'lines',
  'range',
  'view_range',
  'viewRange',
];

/**
 * A tool name in the form the mapping compares: the last segment after an MCP or namespace prefix
 * (`mcp__filesystem__read_file`, `functions.read_file`, `developer__text_editor`), camelCase and
 * kebab-case turned into snake_case, lower case.
 */
export function normalizeToolName(name: string): string {
  const segments = String(name)
    .split(/__|[./:]/)
    .filter((segment) => segment.length > 0);
  const last = segments.at(-1) ?? '';
  return last
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[-\s]+/g, '_')
    .toLowerCase();
}

/**
 * The documented default mapping from tool calls to what they do to files (see `ToolEffect`), for
 * the common tool families ({@link DEFAULT_TOOL_FAMILIES}): the path comes from the first of
 * {@link PATH_ARGUMENTS} the input has (`paths` for multi-file reads, `source`/`destination` for
 * moves, the patch text for `apply_patch`, the command for shells — see `shellEffects`). A read with
 * a line range, `head`/`tail`, or `view_range` is partial; the MCP filesystem's `edit_file` with
 * `dryRun` only shows a diff (a partial read); `glob` lists the pattern's fixed directory part,
 * recursively when the pattern crosses directories. Anything else: no effects (the call is left to
 * the "same tool, same arguments" rule).
 */
export function defaultToolMapping(call: ToolCallPart): ToolEffect[] {
  return effectsForFamily(familyOf(call.toolName, DEFAULT_FAMILY_INDEX), call);
}

/** Which family a tool name belongs to, by an index of normalized names. */
export function familyOf(toolName: string, index: ReadonlyMap<string, ToolFamily>): ToolFamily | undefined {
  const name = normalizeToolName(toolName);
  const exact = index.get(name);
  if (exact !== undefined) return exact;
  // A server prefix joined with an underscore (`filesystem_read_file`): match multi-word names only.
  for (const [known, family] of index) {
    if (known.includes('_') && name.endsWith(`_${known}`)) return family;
  }
  return undefined;
}

/** An index of normalized tool names to families; later families win over earlier ones. */
export function familyIndex(
  families: Partial<Record<ToolFamily, readonly string[]>>,
): Map<string, ToolFamily> {
  const index = new Map<string, ToolFamily>();
  for (const [family, names] of Object.entries(families) as [ToolFamily, readonly string[]][]) {
    for (const name of names) index.set(normalizeToolName(name), family);
  }
  return index;
}

const DEFAULT_FAMILY_INDEX = familyIndex(DEFAULT_TOOL_FAMILIES);

/** The effects of `call` as a tool of `family`. */
export function effectsForFamily(family: ToolFamily | undefined, call: ToolCallPart): ToolEffect[] {
  if (family === undefined) return [];
  const input = inputObject(call.input);
  const cwd = stringField(input, ['workdir', 'cwd', 'working_directory', 'workingDirectory']);
  const path = (raw: unknown) => normalizePath(raw, cwd);
  const one = (kind: 'read' | 'write' | 'edit' | 'delete', raw: unknown, partial = false): ToolEffect[] => {
    const normalized = path(raw);
    if (normalized === undefined) return [];
    if (kind === 'read') return [{ kind, path: normalized, ...(partial ? { partial: true } : {}) }];
    return [{ kind, path: normalized }];
  };
  const target =
    input === undefined
      ? undefined
      : PATH_ARGUMENTS.map((name) => input[name]).find((value) => typeof value === 'string');

  switch (family) {
    case 'read': {
      const paths = input?.paths;
      if (Array.isArray(paths)) {
        const effects = paths.map((raw) => path(raw));
        return effects.every((item) => item !== undefined)
          ? effects.map((item) => ({ kind: 'read' as const, path: item! }))
          : [
              ...effects.flatMap((item) =>
                item === undefined ? [] : [{ kind: 'read' as const, path: item }],
              ),
              { kind: 'other' },
            ];
      }
      return one('read', target, isPartialRead(input));
    }
    case 'write':
      return one('write', target);
    case 'edit':
      // The MCP filesystem's `edit_file` with `dryRun` only shows the diff it would apply.
      if (input?.dryRun === true || input?.dry_run === true) return one('read', target, true);
      return one('edit', target);
    case 'delete':
      return one('delete', target);
    case 'mkdir':
      return one('write', target);
    case 'move': {
      const from =
        input === undefined
          ? undefined
          : ['source', 'from', 'old_path', 'src', 'source_path', 'oldPath']
              .map((name) => input[name])
              .find((value) => typeof value === 'string');
      const to =
        input === undefined
          ? undefined
          : ['destination', 'to', 'new_path', 'dst', 'destination_path', 'newPath', 'target']
              .map((name) => input[name])
              .find((value) => typeof value === 'string');
      const source = path(from);
      const destination = path(to);
      if (source === undefined || destination === undefined) return [];
      return [
        { kind: 'delete', path: source },
        { kind: 'write', path: destination },
      ];
    }
    case 'list':
      return listEffects(call, input, target, cwd);
    case 'editor': {
      const command = typeof input?.command === 'string' ? input.command : undefined;
      if (command === 'view') return one('read', target, isPartialRead(input));
      if (command === 'create' || command === 'write') return one('write', target);
      if (
        command === 'str_replace' ||
        command === 'insert' ||
        command === 'undo_edit' ||
        command === 'append'
      ) {
        return one('edit', target);
      }
      return [];
    }
    case 'patch': {
      const text =
        input === undefined && typeof call.input === 'string'
          ? call.input
          : stringField(input, ['input', 'patch', 'diff', 'content']);
      if (text === undefined) return [];
      const effects = patchEffects(text, cwd);
      // Roo-style `apply_diff` with its own `path` names the file itself.
      return effects.length > 0 ? effects : one('edit', target);
    }
    case 'shell': {
      const command =
        input === undefined && (typeof call.input === 'string' || Array.isArray(call.input))
          ? call.input
          : (input?.command ?? input?.cmd ?? input?.script ?? inputObject(input?.action)?.command);
      if (typeof command !== 'string' && !Array.isArray(command)) return [];
      return shellEffects(command as string | string[], cwd);
    }
  }
}

function listEffects(
  call: ToolCallPart,
  input: Record<string, unknown> | undefined,
  target: unknown,
  cwd: string | undefined,
): ToolEffect[] {
  const name = normalizeToolName(call.toolName);
  const pattern = typeof input?.pattern === 'string' ? input.pattern : undefined;
  if (name === 'glob' || name.endsWith('_glob')) {
    if (pattern === undefined) return [];
    // The fixed directories before the first wildcard, under `path` when given.
    const segments = pattern.split('/');
    const fixed: string[] = [];
    for (const segment of segments.slice(0, -1)) {
      if (/[*?[\]{}]/.test(segment)) break;
      fixed.push(segment);
    }
    const recursive = fixed.length < segments.length - 1 || pattern.includes('**');
    const base = typeof target === 'string' ? target : '.';
    const directory = normalizePath(
      fixed.length === 0 ? base : (joinPath(base, fixed.join('/')) ?? base),
      cwd,
    );
    return directory === undefined
      ? []
      : [{ kind: 'list', path: directory, ...(recursive ? { recursive: true } : {}) }];
  }
  const directory = normalizePath(typeof target === 'string' ? target : '.', cwd);
  if (directory === undefined) return [];
  const recursive =
    name === 'directory_tree' ||
    name === 'search_files' ||
    name === 'find_files' ||
    input?.recursive === true ||
    (typeof input?.depth === 'number' && input.depth > 1);
  return [{ kind: 'list', path: directory, ...(recursive ? { recursive: true } : {}) }];
}

function isPartialRead(input: Record<string, unknown> | undefined): boolean {
  if (input === undefined) return false;
  if (input.should_read_entire_file === true) return false;
  return RANGE_ARGUMENTS.some((name) => input[name] !== undefined && input[name] !== null);
}

/** The call's input as an object: objects as they are, JSON text parsed, anything else undefined. */
function inputObject(input: unknown): Record<string, unknown> | undefined {
  if (typeof input === 'string') {
    const trimmed = input.trim();
    if (!trimmed.startsWith('{')) return undefined;
    try {
      return inputObject(JSON.parse(trimmed));
    } catch {
      return undefined;
    }
  }
  return input !== null && typeof input === 'object' && !Array.isArray(input)
    ? (input as Record<string, unknown>)
    : undefined;
}

function stringField(
  input: Record<string, unknown> | undefined,
  names: readonly string[],
): string | undefined {
  if (input === undefined) return undefined;
  for (const name of names) if (typeof input[name] === 'string') return input[name] as string;
  return undefined;
}
