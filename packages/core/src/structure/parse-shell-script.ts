import type { ShellRedirect, ShellWord, SimpleCommand } from './shell-command';

/**
 * The simple commands of a script, or `undefined` for what this small parser will not guess at:
 * `cd` (later relative paths would be misread), command substitution, process substitution,
 * subshells, backquotes.
 */
export function parseShellScript(script: string): SimpleCommand[] | undefined {
  const commands: SimpleCommand[] = [];
  let current: SimpleCommand = { words: [], redirects: [], piped: false };
  let word: ShellWord | undefined;
  /** A redirection waiting for its target word. */
  let pendingRedirect: ShellRedirect | undefined;
  const pendingHeredocs: { redirect: ShellRedirect; strip: boolean }[] = [];

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
