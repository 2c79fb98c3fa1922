/**
 * Writes data/transcript.json: a deterministic, realistic long agent session in @spillway/core's
 * neutral message format. A coding agent fixes a flaky checkout test: it lists and reads files
 * (some far over the 30,000-character cap), runs tests (long logs with stack traces), fetches a
 * 200 KB documentation page, and takes real PNG screenshots. Run: `pnpm make-transcript`.
 */
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import type { Message, ToolResultContentPart } from '@spillway/core';

let seed = 20261122;
const random = () => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let value = seed;
  value = Math.imul(value ^ (value >>> 15), value | 1);
  value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
  return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
};
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

// --- Real PNG files -------------------------------------------------------------------------------
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Uint8Array): Buffer {
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), Buffer.from(data)]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}
/** A real RGB PNG: a browser-like screenshot (toolbar, sidebar, text lines). */
function screenshotPng(width: number, height: number): string {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0;
    for (let x = 0; x < width; x++) {
      let color = [250, 250, 252];
      if (y < 56) color = [32, 33, 36];
      else if (x < 220) color = [241, 243, 244];
      else if ((y - 80) % 28 < 10 && x > 260 && x < 260 + ((y * 37) % 700) + 200) color = [60, 64, 67];
      raw.set(color, row + 1 + x * 3);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', new Uint8Array()),
  ]);
  return png.toString('base64');
}

// --- Realistic tool output ------------------------------------------------------------------------
const NOUNS = [
  'cart',
  'order',
  'payment',
  'invoice',
  'customer',
  'coupon',
  'shipment',
  'inventory',
  'price',
  'session',
];
const VERBS = [
  'load',
  'validate',
  'apply',
  'compute',
  'persist',
  'refresh',
  'resolve',
  'format',
  'reserve',
  'release',
];
const SENTENCES = [
  'The checkout flow reserves inventory before the payment is captured.',
  'Retries use exponential backoff with jitter, capped at five attempts.',
  'Coupons are applied after taxes in the EU and before taxes in the US.',
  'A session expires after thirty minutes of inactivity.',
  'Webhooks from the payment provider may arrive out of order.',
  'The order total is rounded half to even to match the ledger.',
  'Shipments are split when items come from different warehouses.',
];

function sourceFile(path: string, chars: number): string {
  const lines = [
    `// ${path}`,
    "import { db } from '../db';",
    "import type { Order, Cart } from '../types';",
    '',
  ];
  let length = lines.join('\n').length;
  while (length < chars) {
    const noun = pick(NOUNS);
    const verb = pick(VERBS);
    const name = `${verb}${noun[0]!.toUpperCase()}${noun.slice(1)}`;
    const block = [
      `/** ${pick(SENTENCES)} */`,
      `export async function ${name}(id: string, options: { retries?: number } = {}): Promise<${noun === 'order' ? 'Order' : 'Cart'}> {`,
      `  const row = await db.${noun}s.findUnique({ where: { id } });`,
      `  if (!row) throw new Error(\`${noun} \${id} not found\`);`,
      `  const retries = options.retries ?? ${Math.floor(random() * 5) + 1};`,
      `  for (let attempt = 0; attempt < retries; attempt++) {`,
      `    if (await db.${noun}s.update({ where: { id }, data: { version: row.version + 1 } })) break;`,
      '  }',
      `  return row as never;`,
      '}',
      '',
    ];
    lines.push(...block);
    length += block.join('\n').length + 1;
  }
  return lines.join('\n').slice(0, chars);
}

function testLog(failing: boolean): string {
  const lines: string[] = [];
  for (let index = 0; index < 120; index++) {
    const ms = Math.floor(random() * 900) + 3;
    lines.push(` ✓ src/${pick(NOUNS)}/${pick(VERBS)}.test.ts > ${pick(VERBS)}s the ${pick(NOUNS)} (${ms}ms)`);
  }
  if (failing) {
    lines.push(
      ' ✗ src/checkout/checkout.test.ts > captures payment after reserving inventory (5003ms)',
      '   AssertionError: expected "reserved" to be "captured"',
      '     at src/checkout/checkout.test.ts:88:31',
      '     at processTicksAndRejections (node:internal/process/task_queues:95:5)',
      '   Error: Test timed out in 5000ms.',
    );
  }
  lines.push(
    '',
    ` Test Files  ${failing ? '1 failed | ' : ''}41 passed (42)`,
    `      Tests  ${failing ? '1 failed | ' : ''}312 passed`,
  );
  return lines.join('\n');
}

function docsPage(chars: number): string {
  const parts = [
    '<!doctype html><html><head><title>Payments API reference</title></head><body><nav>…</nav><main>',
  ];
  let length = parts[0]!.length;
  let section = 1;
  while (length < chars) {
    const html = `<section id="s${section}"><h2>${section}. ${pick(VERBS)} ${pick(NOUNS)}</h2><p>${pick(SENTENCES)} ${pick(SENTENCES)}</p><pre><code>POST /v1/${pick(NOUNS)}s/{id}/${pick(VERBS)} HTTP/1.1\nIdempotency-Key: ${Math.floor(random() * 1e12).toString(36)}</code></pre></section>\n`;
    parts.push(html);
    length += html.length;
    section++;
  }
  parts.push('</main></body></html>');
  return parts.join('').slice(0, chars);
}

// --- The session ------------------------------------------------------------------------------------
const messages: Message[] = [
  {
    role: 'system',
    content:
      'You are a senior engineer working in the shop-api repository. Use the tools to inspect files, run tests and browse documentation. Keep changes minimal and explain them.',
  },
];
let callNumber = 0;
function toolTurn(
  toolName: string,
  input: Record<string, unknown>,
  content: string | ToolResultContentPart[],
  note: string,
  isError = false,
): void {
  const toolCallId = `call_${String(++callNumber).padStart(3, '0')}`;
  messages.push({
    role: 'assistant',
    content: [
      { type: 'text', text: note },
      { type: 'tool-call', toolCallId, toolName, input },
    ],
  });
  messages.push({
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId, toolName, content, ...(isError ? { isError } : {}) }],
  });
}

const requests = [
  'The checkout test in src/checkout/checkout.test.ts is flaky on CI (ticket SHOP-1432). Find out why. Do not change the public API of src/checkout/index.ts.',
  'Look at how inventory is reserved in src/inventory/reserve.ts; I suspect the retry loop.',
  'Please read the payment provider docs at https://docs.payments.example.com/v1/captures and check our idempotency keys.',
  'Take a screenshot of the staging checkout page at https://staging.shop.example.com/checkout so I can see the error banner.',
  'Run the whole test suite again with --runInBand.',
  'Check src/orders/totals.ts: totals must be rounded half to even (decision from SHOP-1207).',
  'What does the webhook handler in src/webhooks/payments.ts do with out-of-order events?',
  'Try the fix: capture only after the reservation promise resolves. Keep the timeout at 5000 ms.',
];
for (let turn = 0; turn < 40; turn++) {
  const request =
    turn < requests.length
      ? requests[turn]!
      : `Step ${turn}: ${pick(SENTENCES)} Please continue with src/${pick(NOUNS)}/${pick(VERBS)}.ts.`;
  messages.push({ role: 'user', content: request });
  const file = `src/${pick(NOUNS)}/${pick(VERBS)}.ts`;
  toolTurn(
    'list_files',
    { path: 'src' },
    Array.from({ length: 60 }, () => `src/${pick(NOUNS)}/${pick(VERBS)}.ts`).join('\n'),
    'Let me look at the layout.',
  );
  const size = turn % 7 === 1 ? 64_000 : 4_000 + Math.floor(random() * 12_000);
  toolTurn('read_file', { path: file }, sourceFile(file, size), `Reading ${file}.`);
  if (turn % 3 === 0)
    toolTurn('run_tests', { args: ['--runInBand'] }, testLog(turn < 30), 'Running the tests.');
  if (turn === 2)
    toolTurn(
      'fetch_url',
      { url: 'https://docs.payments.example.com/v1/captures' },
      docsPage(200_000),
      'Fetching the docs.',
    );
  if (turn % 5 === 3) {
    toolTurn(
      'screenshot',
      { url: 'https://staging.shop.example.com/checkout' },
      [
        { type: 'text', text: 'Screenshot of https://staging.shop.example.com/checkout' },
        {
          type: 'image',
          data: screenshotPng(1280, 800),
          mediaType: 'image/png',
          filename: `checkout-${turn}.png`,
        },
      ],
      'Taking a screenshot.',
    );
  }
  if (turn % 4 === 2)
    toolTurn('read_file', { path: file }, sourceFile(file, size), `Re-reading ${file} after the change.`);
  if (turn === 9)
    toolTurn(
      'read_file',
      { path: 'src/missing.ts' },
      'ENOENT: no such file or directory, open src/missing.ts',
      'Opening src/missing.ts.',
      true,
    );
  messages.push({
    role: 'assistant',
    content: `Turn ${turn}: ${pick(SENTENCES)} ${turn >= 7 ? 'The capture now waits for the reservation; the test passed 50 times in a row.' : 'Still investigating.'}`,
  });
}

const path = new URL('../data/transcript.json', import.meta.url);
writeFileSync(path, `${JSON.stringify(messages)}\n`);
console.log(
  `Wrote ${messages.length} messages (${(JSON.stringify(messages).length / 1024).toFixed(0)} KB) to ${path.pathname}`,
);
