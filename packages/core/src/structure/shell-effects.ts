import { baseName, joinPath, normalizePath } from './file-path';
import { patchEffects } from './patch-effects';
import type { ToolEffect } from './tool-effect';

/** A word of a command, and whether it held an unquoted expansion (`$HOME`) the mapping cannot resolve. */
interface Word {
  value: string;
  expands: boolean;
}

/** One simple command of a shell script: its words, redirections, and its place in a pipeline. */
interface SimpleCommand {
  words: Word[];
  redirects: { op: string; fd?: string; target?: Word; body?: string }[];
  /** Its output goes into a pipe (the result shows something else). */
  piped: boolean;
}

const OTHER: ToolEffect = { kind: 'other' };
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh']);
/** Commands that print or change nothing on disk (their output is harmless to drop with the rest). */
const HARMLESS = new Set(['echo', 'printf', 'true', 'false', ':', 'pwd']);

/**
 * What a shell command does to files, for the commands a coding agent uses to read and change them:
 * `cat`/`nl`/`less` (read), `head`/`tail`/`sed -n` (part of a file), `sed -i` (edit), `> f` / `>> f` /
 * `tee` (write, append), `rm`, `mv`, `cp`, `mkdir`, `ls`/`tree`/`find` (listings), `apply_patch` and
 * `git apply`/`patch` with a here-document. Chains (`&&`, `||`, `;`) and pipes are followed; `cd`,
 * command substitutions, subshells and every other command make the call `other` (never stale).
 * `command` is a script, or an argv (`['bash', '-lc', script]`, or a command's own words).
 */
export function shellEffects(command: string | readonly string[], cwd?: string): ToolEffect[] {
  if (Array.isArray(command)) {
    if (command.length === 0 || command.some((word) => typeof word !== 'string')) return [OTHER];
    const shell = SHELLS.has(baseName(command[0]!));
    const flag = command.findIndex((word, index) => index > 0 && /^-[a-z]*c[a-z]*$/.test(word));
    if (shell && flag !== -1 && typeof command[flag + 1] === 'string') {
      return shellEffects(command[flag + 1]!, cwd);
    }
    if (shell) return [OTHER];
    const words = command.map((value) => ({ value, expands: false }));
    return commandEffects({ words, redirects: [], piped: false }, cwd);
  }
  if (typeof command !== 'string') return [OTHER];
  const commands = parseScript(command);
  if (commands === undefined) return [OTHER];
  const effects: ToolEffect[] = [];
  for (const simple of commands) effects.push(...commandEffects(simple, cwd));
  return effects;
}

function commandEffects({ words, redirects, piped }: SimpleCommand, cwd: string | undefined): ToolEffect[] {
  const path = (word: Word | undefined) =>
    word === undefined || word.expands ? undefined : normalizePath(word.value, cwd);
  const effects: ToolEffect[] = [];
  const add = (
    kind: 'read' | 'write' | 'edit' | 'delete' | 'list',
    word: Word | undefined,
    flag?: boolean,
  ) => {
    const normalized = path(word);
    if (normalized === undefined) effects.push(OTHER);
    else if (kind === 'read')
      effects.push({ kind, path: normalized, ...(flag || piped ? { partial: true } : {}) });
    else if (kind === 'list') effects.push({ kind, path: normalized, ...(flag ? { recursive: true } : {}) });
    else effects.push({ kind, path: normalized });
  };

  // Output redirections write files; redirecting stdout means the result shows none of it.
  let stdoutRedirected = false;
  let heredoc: string | undefined;
  for (const redirect of redirects) {
    if (redirect.op === '<<' || redirect.op === '<<-' || redirect.op === '<<<') {
      heredoc = redirect.op === '<<<' ? redirect.target?.value : redirect.body;
      continue;
    }
    if (redirect.op === '<' || redirect.op === '<>') continue;
    if (redirect.op === '>&' && /^\d+$|^-$/.test(redirect.target?.value ?? '')) continue;
    const target = redirect.target;
    if (target === undefined) return [OTHER];
    if (redirect.fd === undefined || redirect.fd === '1' || redirect.op.startsWith('&'))
      stdoutRedirected = true;
    if (/^\/dev\//.test(target.value)) continue;
    add(redirect.op.endsWith('>>') ? 'edit' : 'write', target);
  }

  let start = 0;
  while (start < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[start]!.value)) start++;
  while (
    start < words.length &&
    ['command', 'builtin', 'nohup', 'time', 'env'].includes(words[start]!.value)
  ) {
    start++;
    while (start < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[start]!.value)) start++;
  }
  if (start >= words.length) return effects;
  const nameWord = words[start]!;
  if (nameWord.expands) return [OTHER];
  const name = baseName(nameWord.value);
  const args = words.slice(start + 1);
  // What the command shows is not in the result when its output went to a file.
  const addRead = (kind: 'read' | 'list', word: Word | undefined, flag?: boolean) => {
    if (!stdoutRedirected) add(kind, word, flag);
  };

  switch (name) {
    case 'cat':
    case 'nl':
    case 'less':
    case 'more':
    case 'bat':
    case 'batcat': {
      const { options, operands } = splitArguments(args, [
        '-l',
        '--language',
        '-r',
        '--line-range',
        '-m',
        '--map-syntax',
      ]);
      const partial = options.some((option) => /^(-r|--line-range)/.test(option));
      for (const operand of operands) addRead('read', operand, partial);
      break;
    }
    case 'head':
    case 'tail': {
      const { operands } = splitArguments(args, ['-n', '-c', '--lines', '--bytes']);
      for (const operand of operands) addRead('read', operand, true);
      break;
    }
    case 'sed': {
      const { options, operands, values } = splitArguments(args, [
        '-e',
        '--expression',
        '-f',
        '--file',
        '-l',
        '--line-length',
      ]);
      const inPlace = options.some((option) => /^-[a-zA-Z]*i|^--in-place/.test(option));
      const scripted = values.some(([option]) => /^(-e|--expression|-f|--file)/.test(option));
      // BSD's `sed -i '' …`: the empty suffix is its own word.
      const rest = inPlace && operands[0]?.value === '' ? operands.slice(1) : operands;
      const files = scripted ? rest : rest.slice(1);
      for (const file of files) {
        if (inPlace) add('edit', file);
        else addRead('read', file, true);
      }
      break;
    }
    case 'ls':
    case 'dir': {
      const { options, operands } = splitArguments(args, ['-I', '--ignore', '-w', '--width', '-T']);
      const recursive = options.some((option) => /^-[a-zA-Z]*R|^--recursive/.test(option));
      if (operands.length === 0) addRead('list', { value: '.', expands: false }, recursive);
      for (const operand of operands) addRead('list', operand, recursive);
      break;
    }
    case 'tree': {
      const { operands, values } = splitArguments(args, ['-L', '-I', '-P', '-o', '--filelimit', '--charset']);
      for (const [option, value] of values) if (option === '-o') add('write', value);
      if (operands.length === 0) addRead('list', { value: '.', expands: false }, true);
      for (const operand of operands) addRead('list', operand, true);
      break;
    }
    case 'find': {
      const firstExpression = args.findIndex((arg) => /^[-(!]/.test(arg.value));
      const roots = firstExpression === -1 ? args : args.slice(0, firstExpression);
      const expression = firstExpression === -1 ? [] : args.slice(firstExpression);
      if (
        expression.some((arg) =>
          /^-(delete|exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls)$/.test(arg.value),
        )
      ) {
        return [OTHER];
      }
      if (roots.length === 0) addRead('list', { value: '.', expands: false }, true);
      for (const root of roots) addRead('list', root, true);
      break;
    }
    case 'rm':
    case 'rmdir':
    case 'unlink': {
      for (const operand of splitArguments(args, []).operands) add('delete', operand);
      break;
    }
    case 'mv':
    case 'cp': {
      const { options, operands } = splitArguments(args, ['-S', '--suffix']);
      if (options.some((option) => /^(-[a-zA-Z]*t|--target-directory)/.test(option)) || operands.length < 2) {
        return [OTHER];
      }
      const destination = operands.at(-1)!;
      const target = path(destination);
      for (const source of operands.slice(0, -1)) {
        if (name === 'mv') add('delete', source);
        // The destination is a file, or a directory that now holds the source under its own name.
        const inside =
          target === undefined || source.expands ? undefined : joinPath(target, baseName(source.value));
        effects.push(inside === undefined ? OTHER : { kind: 'write', path: inside });
      }
      add('write', destination);
      break;
    }
    case 'mkdir': {
      for (const operand of splitArguments(args, ['-m', '--mode']).operands) add('write', operand);
      break;
    }
    case 'tee': {
      const { options, operands } = splitArguments(args, []);
      const append = options.some((option) => /^-[a-zA-Z]*a|^--append/.test(option));
      for (const operand of operands) add(append ? 'edit' : 'write', operand);
      break;
    }
    case 'apply_patch':
    case 'applypatch': {
      const text = args[0]?.value ?? heredoc;
      const patched = text === undefined ? [] : patchEffects(text, cwd);
      if (patched.length === 0) return [OTHER];
      effects.push(...patched);
      break;
    }
    case 'patch':
    case 'git': {
      const applying = name === 'patch' || args[0]?.value === 'apply';
      const patched = applying && heredoc !== undefined ? patchEffects(heredoc, cwd) : [];
      if (patched.length === 0) return [OTHER];
      effects.push(...patched);
      break;
    }
    default:
      if (!HARMLESS.has(name)) return [OTHER];
  }
  return effects;
}

/**
 * Options and operands of a command's arguments. Options in `valued` take the next word as their
 * value (unless written `-n20` or `--lines=20`); `--` ends the options.
 */
function splitArguments(
  args: readonly Word[],
  valued: readonly string[],
): { options: string[]; operands: Word[]; values: [string, Word][] } {
  const options: string[] = [];
  const operands: Word[] = [];
  const values: [string, Word][] = [];
  let ended = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (ended || arg.expands || !arg.value.startsWith('-') || arg.value === '-') {
      if (arg.value !== '-') operands.push(arg);
      continue;
    }
    if (arg.value === '--') {
      ended = true;
      continue;
    }
    options.push(arg.value);
    // `-n 20` takes the next word; `-n20`, `--lines=20` and `head -20` carry their value inside.
    if (valued.includes(arg.value) && index + 1 < args.length) {
      values.push([arg.value, args[index + 1]!]);
      index++;
    }
  }
  return { options, operands, values };
}

/**
 * The simple commands of a script, or `undefined` for what this small parser will not guess at:
 * `cd` (later relative paths would be misread), command substitution, process substitution,
 * subshells, backquotes.
 */
function parseScript(script: string): SimpleCommand[] | undefined {
  const commands: SimpleCommand[] = [];
  let current: SimpleCommand = { words: [], redirects: [], piped: false };
  let word: Word | undefined;
  /** A redirection waiting for its target word. */
  let pendingRedirect: SimpleCommand['redirects'][number] | undefined;
  const pendingHeredocs: { redirect: SimpleCommand['redirects'][number]; strip: boolean }[] = [];

  const endWord = () => {
    if (word === undefined) return;
    if (pendingRedirect !== undefined) {
      pendingRedirect.target = word;
      pendingRedirect = undefined;
    } else current.words.push(word);
    word = undefined;
  };
  const endCommand = (piped: boolean) => {
    endWord();
    if (pendingRedirect !== undefined) return false;
    if (current.words.length > 0 || current.redirects.length > 0) {
      current.piped = piped;
      commands.push(current);
    } else if (piped) return false;
    current = { words: [], redirects: [], piped: false };
    return true;
  };
  const append = (text: string, expands = false) => {
    word ??= { value: '', expands: false };
    word.value += text;
    if (expands) word.expands = true;
  };

  let index = 0;
  while (index < script.length) {
    const char = script[index]!;
    const next = script[index + 1];
    if (char === ' ' || char === '\t') {
      endWord();
      index++;
    } else if (char === '\n') {
      if (!endCommand(false)) return undefined;
      index++;
      // Here-documents start on the next line and end at their delimiter.
      for (const { redirect, strip } of pendingHeredocs.splice(0)) {
        const delimiter = redirect.target?.value ?? '';
        const body: string[] = [];
        while (index < script.length) {
          const lineEnd = script.indexOf('\n', index);
          const line = script.slice(index, lineEnd === -1 ? script.length : lineEnd);
          index = lineEnd === -1 ? script.length : lineEnd + 1;
          if ((strip ? line.replace(/^\t+/, '') : line) === delimiter) break;
          body.push(line);
        }
        redirect.body = body.join('\n');
      }
    } else if (char === '#' && word === undefined) {
      while (index < script.length && script[index] !== '\n') index++;
    } else if (char === "'") {
      const close = script.indexOf("'", index + 1);
      if (close === -1) return undefined;
      append(script.slice(index + 1, close));
      index = close + 1;
    } else if (char === '"') {
      let text = '';
      let expands = false;
      index++;
      while (index < script.length && script[index] !== '"') {
        const inner = script[index]!;
        if (inner === '\\' && index + 1 < script.length && '"\\$`\n'.includes(script[index + 1]!)) {
          text += script[index + 1];
          index += 2;
          continue;
        }
        if (inner === '`' || (inner === '$' && script[index + 1] === '(')) return undefined;
        if (inner === '$') expands = true;
        text += inner;
        index++;
      }
      if (index >= script.length) return undefined;
      append(text, expands);
      index++;
    } else if (char === '\\') {
      if (next === '\n') index += 2;
      else {
        append(next ?? '');
        index += 2;
      }
    } else if (char === '`' || (char === '$' && next === '(') || char === '(' || char === ')') {
      return undefined;
    } else if (char === '$') {
      append('$', true);
      index++;
    } else if (char === '&' && next === '&') {
      if (!endCommand(false)) return undefined;
      index += 2;
    } else if (char === '|' && next === '|') {
      if (!endCommand(false)) return undefined;
      index += 2;
    } else if (char === '|') {
      if (!endCommand(true)) return undefined;
      index += next === '&' ? 2 : 1;
    } else if (char === ';') {
      if (!endCommand(false)) return undefined;
      index++;
    } else if (char === '&' && next === '>') {
      endWord();
      const op = script[index + 2] === '>' ? '&>>' : '&>';
      pendingRedirect = { op };
      current.redirects.push(pendingRedirect);
      index += op.length;
    } else if (char === '&') {
      if (!endCommand(false)) return undefined;
      index++;
    } else if (char === '>' || char === '<') {
      if (next === '(') return undefined;
      // A word of digits right before the operator is a file descriptor (`2>`).
      let fd: string | undefined;
      if (word !== undefined && !word.expands && /^\d+$/.test(word.value)) {
        fd = word.value;
        word = undefined;
      } else endWord();
      const op =
        ['<<<', '<<-', '>>', '>|', '>&', '<<', '<>', '<&'].find((candidate) =>
          script.startsWith(candidate, index),
        ) ?? char;
      if (pendingRedirect !== undefined) return undefined;
      pendingRedirect = { op, ...(fd === undefined ? {} : { fd }) };
      current.redirects.push(pendingRedirect);
      if (op === '<<' || op === '<<-')
        pendingHeredocs.push({ redirect: pendingRedirect, strip: op === '<<-' });
      index += op.length;
    } else if (char === 'c' && word === undefined && /^cd(?=[\s;&|]|$)/.test(script.slice(index))) {
      return undefined;
    } else if (
      (char === 'p' || char === 'c') &&
      word === undefined &&
      /^(pushd|popd|chdir)(?=[\s;&|]|$)/.test(script.slice(index))
    ) {
      return undefined;
    } else {
      append(char);
      index++;
    }
  }
  return endCommand(false) ? commands : undefined;
}
