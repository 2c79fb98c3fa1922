import { describe, expect, it } from 'vitest';
import type { ToolCallPart } from '../message/message';
import { defaultToolMapping, normalizeToolName } from './default-tool-mapping';

const call = (toolName: string, input: unknown): ToolCallPart => ({
  type: 'tool-call',
  toolCallId: 'c1',
  toolName,
  input,
});
const effects = (toolName: string, input: unknown) => defaultToolMapping(call(toolName, input));

describe('normalizeToolName', () => {
  it('drops MCP and namespace prefixes and turns every case into snake_case', () => {
    expect(normalizeToolName('mcp__filesystem__read_text_file')).toBe('read_text_file');
    expect(normalizeToolName('functions.read_file')).toBe('read_file');
    expect(normalizeToolName('developer__text_editor')).toBe('text_editor');
    expect(normalizeToolName('readFile')).toBe('read_file');
    expect(normalizeToolName('MultiEdit')).toBe('multi_edit');
    expect(normalizeToolName('NotebookEdit')).toBe('notebook_edit');
    expect(normalizeToolName('LS')).toBe('ls');
    expect(normalizeToolName('list-directory')).toBe('list_directory');
  });
});

describe('defaultToolMapping: argument shapes', () => {
  it('reads the path from path, file_path, filePath, target_file, absolute_path and friends', () => {
    for (const key of [
      'path',
      'file_path',
      'filePath',
      'filepath',
      'target_file',
      'absolute_path',
      'notebook_path',
    ]) {
      expect(effects('read_file', { [key]: './src/a.ts' })).toEqual([{ kind: 'read', path: 'src/a.ts' }]);
    }
    expect(effects('Read', { file_path: '/repo/src/a.ts' })).toEqual([
      { kind: 'read', path: '/repo/src/a.ts' },
    ]);
  });

  it('parses JSON-text inputs and file:// URIs', () => {
    expect(effects('read_file', '{"path":"src/a.ts"}')).toEqual([{ kind: 'read', path: 'src/a.ts' }]);
    expect(effects('read_file', { uri: 'file:///repo/my%20file.ts' })).toEqual([
      { kind: 'read', path: '/repo/my file.ts' },
    ]);
  });

  it('marks line ranges, head/tail and view_range as partial reads', () => {
    expect(effects('Read', { file_path: 'a.ts', offset: 100, limit: 50 })).toEqual([
      { kind: 'read', path: 'a.ts', partial: true },
    ]);
    expect(
      effects('read_file', { target_file: 'a.ts', start_line_one_indexed: 1, end_line_one_indexed: 40 }),
    ).toEqual([{ kind: 'read', path: 'a.ts', partial: true }]);
    expect(
      effects('read_file', { target_file: 'a.ts', start_line_one_indexed: 1, should_read_entire_file: true }),
    ).toEqual([{ kind: 'read', path: 'a.ts' }]);
    expect(effects('read_text_file', { path: 'a.ts', head: 20 })).toEqual([
      { kind: 'read', path: 'a.ts', partial: true },
    ]);
  });

  it('knows writes, edits, deletes, moves and new directories', () => {
    expect(effects('write_file', { path: 'a.ts', content: 'x' })).toEqual([{ kind: 'write', path: 'a.ts' }]);
    expect(effects('create_file', { path: 'a.ts' })).toEqual([{ kind: 'write', path: 'a.ts' }]);
    expect(effects('Write', { file_path: 'a.ts' })).toEqual([{ kind: 'write', path: 'a.ts' }]);
    expect(effects('write_to_file', { path: 'a.ts' })).toEqual([{ kind: 'write', path: 'a.ts' }]);
    for (const name of [
      'edit',
      'Edit',
      'MultiEdit',
      'str_replace',
      'search_replace',
      'replace_in_file',
      'edit_file',
    ]) {
      expect(effects(name, { file_path: 'a.ts', old_string: 'a', new_string: 'b' })).toEqual([
        { kind: 'edit', path: 'a.ts' },
      ]);
    }
    expect(effects('delete_file', { target_file: 'a.ts' })).toEqual([{ kind: 'delete', path: 'a.ts' }]);
    expect(effects('move_file', { source: 'a.ts', destination: 'lib/a.ts' })).toEqual([
      { kind: 'delete', path: 'a.ts' },
      { kind: 'write', path: 'lib/a.ts' },
    ]);
    expect(effects('create_directory', { path: 'lib/new' })).toEqual([{ kind: 'write', path: 'lib/new' }]);
  });

  it("maps the MCP filesystem server's tools, prefixed or not", () => {
    expect(effects('mcp__filesystem__read_text_file', { path: '/w/a.ts' })).toEqual([
      { kind: 'read', path: '/w/a.ts' },
    ]);
    expect(effects('read_multiple_files', { paths: ['/w/a.ts', '/w/b.ts'] })).toEqual([
      { kind: 'read', path: '/w/a.ts' },
      { kind: 'read', path: '/w/b.ts' },
    ]);
    expect(effects('filesystem_write_file', { path: '/w/a.ts', content: '' })).toEqual([
      { kind: 'write', path: '/w/a.ts' },
    ]);
    expect(effects('edit_file', { path: '/w/a.ts', edits: [] })).toEqual([{ kind: 'edit', path: '/w/a.ts' }]);
    expect(effects('edit_file', { path: '/w/a.ts', edits: [], dryRun: true })).toEqual([
      { kind: 'read', path: '/w/a.ts', partial: true },
    ]);
    expect(effects('list_directory', { path: '/w/src' })).toEqual([{ kind: 'list', path: '/w/src' }]);
    expect(effects('directory_tree', { path: '/w' })).toEqual([
      { kind: 'list', path: '/w', recursive: true },
    ]);
    expect(effects('search_files', { path: '/w', pattern: 'x' })).toEqual([
      { kind: 'list', path: '/w', recursive: true },
    ]);
  });

  it('maps the text editor tool by its command', () => {
    expect(effects('str_replace_based_edit_tool', { command: 'view', path: 'a.ts' })).toEqual([
      { kind: 'read', path: 'a.ts' },
    ]);
    expect(effects('str_replace_editor', { command: 'view', path: 'a.ts', view_range: [1, 9] })).toEqual([
      { kind: 'read', path: 'a.ts', partial: true },
    ]);
    expect(effects('str_replace_editor', { command: 'create', path: 'a.ts', file_text: '' })).toEqual([
      { kind: 'write', path: 'a.ts' },
    ]);
    expect(effects('developer__text_editor', { command: 'str_replace', path: 'a.ts' })).toEqual([
      { kind: 'edit', path: 'a.ts' },
    ]);
    expect(effects('str_replace_editor', { command: 'undo_edit', path: 'a.ts' })).toEqual([
      { kind: 'edit', path: 'a.ts' },
    ]);
  });

  it('maps listings and globs to the directory they show', () => {
    expect(effects('LS', { path: '/w/src' })).toEqual([{ kind: 'list', path: '/w/src' }]);
    expect(effects('list_dir', { relative_workspace_path: 'src' })).toEqual([{ kind: 'list', path: 'src' }]);
    expect(effects('list_files', { path: 'src', recursive: true })).toEqual([
      { kind: 'list', path: 'src', recursive: true },
    ]);
    expect(effects('Glob', { pattern: 'src/*.ts' })).toEqual([{ kind: 'list', path: 'src' }]);
    expect(effects('Glob', { pattern: '**/*.ts', path: '/w' })).toEqual([
      { kind: 'list', path: '/w', recursive: true },
    ]);
    expect(effects('glob', { pattern: 'src/**/test/*.ts' })).toEqual([
      { kind: 'list', path: 'src', recursive: true },
    ]);
  });

  it('maps apply_patch in every shape it comes in', () => {
    const patch =
      '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-a\n+b\n*** Add File: src/b.ts\n+x\n*** End Patch';
    const expected = [
      { kind: 'edit', path: 'src/a.ts' },
      { kind: 'write', path: 'src/b.ts' },
    ];
    expect(effects('apply_patch', patch)).toEqual(expected);
    expect(effects('apply_patch', { input: patch })).toEqual(expected);
    expect(effects('shell', { command: ['apply_patch', patch] })).toEqual(expected);
    expect(
      effects('apply_diff', { path: 'src/c.ts', diff: '<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE' }),
    ).toEqual([{ kind: 'edit', path: 'src/c.ts' }]);
  });

  it('maps shell tools through their command, with the working directory when given', () => {
    expect(effects('Bash', { command: 'cat src/a.ts' })).toEqual([{ kind: 'read', path: 'src/a.ts' }]);
    expect(effects('run_terminal_cmd', { command: "sed -i 's/a/b/' src/a.ts" })).toEqual([
      { kind: 'edit', path: 'src/a.ts' },
    ]);
    expect(effects('shell', { command: ['bash', '-lc', 'cat a.ts'], workdir: '/w' })).toEqual([
      { kind: 'read', path: '/w/a.ts' },
    ]);
    expect(effects('local_shell', { action: { command: ['cat', 'a.ts'] } })).toEqual([
      { kind: 'read', path: 'a.ts' },
    ]);
    expect(effects('run_command', { command: 'pnpm test' })).toEqual([{ kind: 'other' }]);
  });

  it('gives nothing for unknown tools, missing paths and patterns', () => {
    expect(effects('search_web', { query: 'x' })).toEqual([]);
    expect(effects('read_file', {})).toEqual([]);
    expect(effects('read_file', { path: 'src/*.ts' })).toEqual([]);
    expect(effects('read_file', null)).toEqual([]);
    expect(effects('grep', { pattern: 'x', path: 'src' })).toEqual([]);
  });
});
