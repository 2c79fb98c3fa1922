import type { ToolEffect } from './tool-effect';

/** A word of a command, and whether it held an unquoted expansion (`$HOME`) the mapping cannot resolve. */
export interface ShellWord {
  value: string;
  expands: boolean;
}

/** A redirection: its operator, the file descriptor written before it, its target word or here-document body. */
export interface ShellRedirect {
  op: string;
  fd?: string;
  target?: ShellWord;
  body?: string;
}

/** One simple command of a shell script: its words, redirections, and its place in a pipeline. */
export interface SimpleCommand {
  words: ShellWord[];
  redirects: ShellRedirect[];
  /** Its output goes into a pipe (the result shows something else). */
  piped: boolean;
}

/** The effect of a command the mapping cannot see through: a result with it is never stale. */
export const OTHER_EFFECT: ToolEffect = { kind: 'other' };

/** A word written literally in the mapping's own code (`.` for a listing without operands). */
export const literalWord = (value: string): ShellWord => ({ value, expands: false });
