import type { Message, ToolCallPart, ToolResultPart } from '../src/message/message';
import { prose, seededRandom } from './conversation-fixtures';

/** Options of {@link codingSession}. */
export interface CodingSessionOptions {
  seed: number;
  /** Finished user turns before the current one. */
  turns: number;
  /** Files in the repository the agent works on. */
  files?: number;
  /** Lines of a file (about 60 characters each). */
  fileLines?: number;
  /** Share of turns that are short chat (no tools). */
  chatRate?: number;
  /** Tool steps of the turn in progress. */
  currentSteps?: number;
}

/** A generated coding-agent session and what the generator knows about it. */
export interface CodingSession {
  messages: Message[];
  /** Index of the latest user message: the current turn starts there. */
  turnStart: number;
  /** Ids of the calls whose results show a whole file, by path, in order. */
  fullReads: Map<string, string[]>;
  /** Ids of the calls that changed a file, by path, in order. */
  changes: Map<string, string[]>;
  /** Every user message's text, in order. */
  userTexts: string[];
}

/**
 * A coding-agent session as agents hold it: a system prompt; turns where the user asks, the
 * assistant reads files (through `read_file`, Claude Code's `Read`, the MCP filesystem's
 * `read_text_file` or `cat` in a shell), edits them (`edit_file`, the text editor tool's
 * `str_replace`, `sed -i`, `apply_patch`), writes new ones, lists directories, greps and runs the
 * tests again and again (near-identical outputs), then answers; some turns are short chat. The
 * current turn is a user message and a few tool steps. Files change as they are edited, so a
 * re-read shows the new content.
 */
export function codingSession({
  seed,
  turns,
  files: fileCount = 6,
  fileLines = 60,
  chatRate = 0.25,
  currentSteps = 2,
}: CodingSessionOptions): CodingSession {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const paths = Array.from(
    { length: fileCount },
    (_, index) => `src/${pick(['api', 'core', 'ui'])}/module${index}.ts`,
  );
  const files = new Map<string, string[]>();
  for (const path of paths) {
    files.set(
      path,
      Array.from(
        { length: fileLines },
        (_, line) => `export const value${line} = ${Math.floor(random() * 100_000)}; // ${prose(random, 5)}`,
      ),
    );
  }
  const messages: Message[] = [
    { role: 'system', content: 'You are a careful coding agent. Read files before you change them.' },
  ];
  const fullReads = new Map<string, string[]>();
  const changes = new Map<string, string[]>();
  const userTexts: string[] = [];
  const note = (map: Map<string, string[]>, path: string, id: string) => {
    const list = map.get(path) ?? [];
    list.push(id);
    map.set(path, list);
  };
  let callNumber = 0;
  let testRuns = 0;

  const step = (): { call: ToolCallPart; result: ToolResultPart } => {
    const id = `call_${++callNumber}`;
    const path = pick(paths);
    const lines = files.get(path)!;
    const roll = random();
    const make = (toolName: string, input: unknown, content: string) => ({
      call: { type: 'tool-call' as const, toolCallId: id, toolName, input },
      result: { type: 'tool-result' as const, toolCallId: id, toolName, content },
    });
    if (roll < 0.35) {
      note(fullReads, path, id);
      const text = lines.join('\n');
      switch (Math.floor(random() * 4)) {
        case 0:
          return make('read_file', { path }, text);
        case 1:
          return make('Read', { file_path: `./${path}` }, text);
        case 2:
          return make('mcp__filesystem__read_text_file', { path }, text);
        default:
          return make('bash', { command: `cat ${path}` }, text);
      }
    }
    if (roll < 0.6) {
      const line = Math.floor(random() * lines.length);
      const before = lines[line]!;
      const after = before.replace(/= \d+/, `= ${Math.floor(random() * 100_000)}`);
      lines[line] = after;
      note(changes, path, id);
      const snippet = lines.slice(Math.max(0, line - 3), line + 4).join('\n');
      switch (Math.floor(random() * 4)) {
        case 0:
          return make(
            'edit_file',
            { path, old_string: before, new_string: after },
            `Edited ${path}:\n${snippet}`,
          );
        case 1:
          return make(
            'str_replace_based_edit_tool',
            { command: 'str_replace', path, old_str: before, new_str: after },
            `The file ${path} has been edited. Here's the result of running \`cat -n\` on a snippet:\n${snippet}`,
          );
        case 2:
          return make(
            'bash',
            { command: `sed -i 's/${before.slice(0, 20)}/${after.slice(0, 20)}/' ${path}` },
            '',
          );
        default:
          return make(
            'apply_patch',
            { input: `*** Begin Patch\n*** Update File: ${path}\n@@\n-${before}\n+${after}\n*** End Patch` },
            `Success. Updated the following files:\nM ${path}`,
          );
      }
    }
    if (roll < 0.68) {
      // A new file in the same directory (its listing goes stale).
      const directory = path.slice(0, path.lastIndexOf('/'));
      const created = `${directory}/generated${callNumber}.ts`;
      files.set(created, [`export const created = ${callNumber};`]);
      paths.push(created);
      note(changes, created, id);
      return make(
        'write_file',
        { path: created, content: `export const created = ${callNumber};` },
        `Wrote ${created}`,
      );
    }
    if (roll < 0.76) {
      const directory = pick(['src/api', 'src/core', 'src/ui']);
      const listing = [...files.keys()].filter((file) => file.startsWith(`${directory}/`)).sort();
      const text = listing.map(
        (file) => `[FILE] ${file.slice(directory.length + 1)} (${files.get(file)!.join('\n').length} bytes)`,
      );
      return make(
        'list_directory',
        { path: directory },
        [`Contents of ${directory}:`, ...text, ...Array(8).fill('')].join('\n'),
      );
    }
    if (roll < 0.88) {
      // Repeated test runs: the same report with a few lines that differ.
      testRuns++;
      const report = paths
        .slice(0, fileCount)
        .flatMap((file, index) => [
          ` ✓ ${file.replace('.ts', '.test.ts')} (${12 + index} tests) ${(index * 37) % 400}ms`,
          `   ✓ ${file} > exports value${index} as a number`,
          `   ✓ ${file} > keeps value${index} stable across reloads`,
        ]);
      const failing = Math.floor(random() * 3);
      if (failing > 0)
        report.push(` ✗ ${paths[testRuns % fileCount]} > value${failing} matches the snapshot`);
      report.push(
        '',
        ` Test Files  ${fileCount} passed (${fileCount})`,
        `      Tests  ${fileCount * 14 - failing} passed`,
      );
      const command = pick([
        'pnpm test',
        'pnpm test --run',
        'pnpm vitest run',
        'pnpm vitest run src',
        'npm test',
      ]);
      return make('run_command', { command }, report.join('\n'));
    }
    // Grep for a symbol: the matching lines across the files, near-identical between runs.
    const symbol = `value${Math.floor(random() * 4)}`;
    const matches = [...files.entries()].flatMap(([file, content]) =>
      content.flatMap((text, line) => (text.includes(`${symbol} `) ? [`${file}:${line + 1}:${text}`] : [])),
    );
    const input = pick([
      { pattern: symbol, path: 'src' },
      { pattern: `${symbol} `, path: 'src' },
      { pattern: symbol, path: 'src', '-n': true },
    ]);
    return make('grep', input, matches.join('\n'));
  };

  const toolSteps = (count: number) => {
    for (let index = 0; index < count; index++) {
      const parallel = random() < 0.2 ? 2 : 1;
      const pairs = Array.from({ length: parallel }, () => step());
      messages.push({
        role: 'assistant',
        content: [{ type: 'text', text: prose(random, 6) }, ...pairs.map(({ call }) => call)],
      });
      messages.push({ role: 'tool', content: pairs.map(({ result }) => result) });
    }
  };

  for (let turn = 0; turn < turns; turn++) {
    if (random() < chatRate) {
      const ask = pick([
        'thanks, that helps',
        `ok. and what about ${pick(paths)}?`,
        'sounds good to me',
        `wait, did you keep the port at ${1000 + turn}?`,
        'great. please keep going',
      ]);
      userTexts.push(ask);
      messages.push({ role: 'user', content: ask });
      // Replies to chat are as wordy as models make them.
      messages.push({ role: 'assistant', content: `${prose(random, 8 + Math.floor(random() * 60))}` });
      continue;
    }
    const ask = `Turn ${turn}: please look at ${pick(paths)} and fix ticket ABC-${100 + turn}. ${prose(random, 8)}`;
    userTexts.push(ask);
    messages.push({ role: 'user', content: ask });
    toolSteps(1 + Math.floor(random() * 4));
    messages.push({ role: 'assistant', content: `Done with turn ${turn}: ${prose(random, 14)}` });
  }
  const ask = `Now the current task: tidy up ${pick(paths)} and run the tests. ${prose(random, 6)}`;
  userTexts.push(ask);
  const turnStart = messages.length;
  messages.push({ role: 'user', content: ask });
  toolSteps(currentSteps);
  return { messages, turnStart, fullReads, changes, userTexts };
}
