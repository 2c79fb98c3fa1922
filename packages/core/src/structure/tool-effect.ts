import type { ToolCallPart } from '../message/message';

/**
 * What one tool call does to one path, as far as superseding is concerned (see
 * {@link defaultToolMapping}). Paths are compared after normalization (`./src/a.ts` and
 * `src//a.ts` are `src/a.ts`); a relative path and an absolute one never match.
 *
 * - `read`: the result shows the content of the file at `path`; `partial` when it shows only a part
 *   of it (a line range, `head`, `sed -n`, a filtered pipe).
 * - `write`: the file at `path` was written whole or created (also a created directory).
 * - `edit`: the file at `path` was changed in place (`str_replace`, `sed -i`, a patch hunk, `>>`).
 * - `delete`: the file or directory at `path` was removed (or moved away).
 * - `list`: the result lists the directory at `path`; `recursive` when it lists everything below.
 * - `other`: the call does something the mapping cannot see (an unknown shell command): a result
 *   with an `other` effect is never taken for stale.
 */
export type ToolEffect =
  | { readonly kind: 'read'; readonly path: string; readonly partial?: boolean }
  | { readonly kind: 'write' | 'edit' | 'delete'; readonly path: string }
  | { readonly kind: 'list'; readonly path: string; readonly recursive?: boolean }
  | { readonly kind: 'other' };

/**
 * Says what a tool call does to which paths: an empty list (or `undefined`) for a call that is not a
 * file operation. {@link defaultToolMapping} knows the common tool families;
 * {@link createToolMapping} teaches it your own tool names.
 */
export type ToolMapping = (call: ToolCallPart) => readonly ToolEffect[] | undefined;
