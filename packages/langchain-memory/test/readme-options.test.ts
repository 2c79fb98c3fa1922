import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, test } from 'vitest';

/**
 * Docs match the code: every option of the three entry points — their own and every one they take
 * from the core — is named in the README, and so is every method of the history.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(`${root}README.md`, 'utf8');

function propertiesOf(names: readonly string[]): Map<string, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(
    `${root}tsconfig.json`,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => {},
    },
  )!;
  const program = ts.createProgram([`${root}src/index.ts`], config.options);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(`${root}src/index.ts`)!;
  const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(source)!);
  const result = new Map<string, string[]>();
  for (const name of names) {
    const symbol = exports.find((candidate) => candidate.name === name)!;
    const type = checker.getDeclaredTypeOfSymbol(checker.getAliasedSymbol(symbol));
    result.set(
      name,
      checker.getPropertiesOfType(type).map((property) => property.name),
    );
  }
  return result;
}

test('every option of the three entry points is documented in the README', () => {
  const options = propertiesOf([
    'CompactionMiddlewareOptions',
    'CompactingChatMessageHistoryOptions',
    'CompactionMemoryOptions',
    'CompactThreadOptions',
    'GetPromptMessagesOptions',
    'CompactNowResult',
  ]);
  for (const [type, names] of options) {
    expect(names.length, type).toBeGreaterThan(1);
    const missing = names.filter((name) => !readme.includes(`\`${name}\``) && !readme.includes(`\`${name}(`));
    expect(missing, `${type} options missing from the README`).toEqual([]);
  }
}, 60_000);
