import type { ToolCallPart } from '../message/message';
import { ancestorPaths, normalizePath, parentPath } from './file-path';
import type { ToolEffect } from './tool-effect';

/** A later call that made an effect stale: it changed the path, or read all of it again. */
export interface ToolEvent {
  readonly toolName: string;
  readonly toolCallId: string;
  readonly kind: 'read' | 'write' | 'edit' | 'delete';
  readonly path: string;
  /** Index of the message holding the call. */
  readonly step: number;
}

/** What the calls after a point did, for {@link supersedeToolResults}' newest-first walk. */
export interface ToolEffectState {
  /** The nearest recorded call after `step` that makes `effect` stale, if any. */
  staleBy(effect: ToolEffect, step: number): ToolEvent | undefined;
  /** Records what a call (in the message at `step`) did; call it for results walked newest first. */
  record(effects: readonly ToolEffect[], call: ToolCallPart, step: number): void;
}

/**
 * The bookkeeping of stale results: whole reads and changes by path, changes by parent directory
 * and by every ancestor (for listings), deletions by path (a deleted directory makes everything
 * read below it stale).
 */
export function toolEffectState(): ToolEffectState {
  const wholeReads = new Map<string, ToolEvent[]>();
  const changes = new Map<string, ToolEvent[]>();
  const deletions = new Map<string, ToolEvent[]>();
  const childChanges = new Map<string, ToolEvent[]>();
  const descendantChanges = new Map<string, ToolEvent[]>();
  const add = (map: Map<string, ToolEvent[]>, key: string, event: ToolEvent) => {
    const list = map.get(key);
    if (list === undefined) map.set(key, [event]);
    else list.push(event);
  };
  /** The nearest event after `step`: events are recorded newest first, so the nearest come last. */
  const after = (map: Map<string, ToolEvent[]>, key: string, step: number): ToolEvent | undefined => {
    const list = map.get(key);
    if (list === undefined) return undefined;
    for (let index = list.length - 1; index >= 0; index--) if (list[index]!.step > step) return list[index];
    return undefined;
  };
  const nearest = (...events: (ToolEvent | undefined)[]): ToolEvent | undefined => {
    let best: ToolEvent | undefined;
    for (const event of events)
      if (event !== undefined && (best === undefined || event.step < best.step)) best = event;
    return best;
  };

  return {
    staleBy(effect, step) {
      if (effect.kind === 'other') return undefined;
      const path = normalizePath(effect.path);
      if (path === undefined) return undefined;
      if (effect.kind === 'list') {
        return after(effect.recursive === true ? descendantChanges : childChanges, path, step);
      }
      return nearest(
        after(changes, path, step),
        after(wholeReads, path, step),
        ...ancestorPaths(path).map((ancestor) => after(deletions, ancestor, step)),
      );
    },
    record(effects, call, step) {
      for (const effect of effects) {
        if (effect.kind === 'other' || effect.kind === 'list') continue;
        const path = normalizePath(effect.path);
        if (path === undefined) continue;
        if (effect.kind === 'read' && effect.partial === true) continue;
        const event: ToolEvent = {
          toolName: call.toolName,
          toolCallId: call.toolCallId,
          kind: effect.kind,
          path,
          step,
        };
        if (effect.kind === 'read') {
          add(wholeReads, path, event);
          continue;
        }
        add(changes, path, event);
        if (effect.kind === 'edit') continue;
        // Created, rewritten, moved or deleted: the listings of the directories above show it.
        if (effect.kind === 'delete') add(deletions, path, event);
        const parent = parentPath(path);
        if (parent !== undefined) add(childChanges, parent, event);
        for (const ancestor of ancestorPaths(path)) add(descendantChanges, ancestor, event);
      }
    },
  };
}

const VERBS = { write: 'wrote', edit: 'changed', delete: 'deleted', read: 'read' } as const;
const MAX_PATH_CHARS = 100;
const MAX_PATHS = 3;

/**
 * The one-line note that replaces a stale result: what it showed, which later call made it stale,
 * and where to look instead.
 */
export function supersededNote(
  toolName: string,
  effects: readonly ToolEffect[],
  staleBy: readonly ToolEvent[],
): string {
  const paths = [
    ...new Set(
      effects.flatMap((effect) =>
        effect.kind === 'other' ? [] : [normalizePath(effect.path) ?? effect.path],
      ),
    ),
  ];
  const shown = paths.slice(0, MAX_PATHS).map(shortPath).join(', ');
  const subject = `${toolName} of ${shown}${paths.length > MAX_PATHS ? ` and ${paths.length - MAX_PATHS} more` : ''}`;
  const effect = effects[0]!;
  const event = staleBy[0]!;
  const call = `(call ${event.toolCallId})`;
  const samePath = effect.kind !== 'other' && normalizePath(effect.path) === event.path;
  const what = samePath ? 'it' : shortPath(event.path);
  if (event.kind === 'read') {
    return effect.kind === 'read' || effect.kind === 'list'
      ? `[superseded: ${subject} — it was read again later ${call}; see the newer result]`
      : `[superseded: ${subject} — it was read in full later ${call}; see the newer result]`;
  }
  const verb = `${event.toolName} ${VERBS[event.kind]} ${what}`;
  if (effect.kind === 'read') {
    return `[superseded: ${subject} is stale — ${verb} later ${call}; read it again if you need its current content]`;
  }
  if (effect.kind === 'list') {
    return `[superseded: ${subject} is stale — ${verb} later ${call}; list it again if you need it]`;
  }
  return `[superseded: ${subject} — ${verb === `${event.toolName} ${VERBS[event.kind]} it` ? `${verb} again` : verb} later ${call}]`;
}

function shortPath(path: string): string {
  if (path.length <= MAX_PATH_CHARS) return path;
  const half = Math.floor((MAX_PATH_CHARS - 1) / 2);
  return `${path.slice(0, half)}…${path.slice(-half)}`;
}
