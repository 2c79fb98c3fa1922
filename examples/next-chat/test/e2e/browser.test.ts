/**
 * The chat in a real browser: a production build of the app (`next build`, `next start`) and the
 * system's headless Chromium driven by playwright-core (no browser download). It chats until
 * Spillway summarizes, and checks what a user sees:
 *
 * - the "Optimizing conversation context…" indicator appears while the summary is made, and is
 *   replaced when it is done (a screenshot of that moment is saved as an artifact);
 * - the context meter drops after the summary;
 * - with the summarizer made to fail, the "Conversation history has been automatically trimmed"
 *   notice shows;
 * - the browser console shows no errors.
 *
 * `pnpm test:browser`. Chromium: `CHROMIUM_PATH`, default `/usr/bin/chromium` (Debian's `chromium`
 * package). `SKIP_BUILD=1` reuses an existing `.next` build.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { demoMessage, longPageRequest } from '../../lib/demo-script';

const root = fileURLToPath(new URL('../../', import.meta.url));
const artifacts = join(root, 'artifacts');
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The app runs offline: the scripted model and summarizer, never a provider. */
const appEnv = {
  ...process.env,
  NEXT_TELEMETRY_DISABLED: '1',
  OPENAI_API_KEY: '',
  ANTHROPIC_API_KEY: '',
};

let server: ChildProcess | undefined;
let context: BrowserContext | undefined;
let profile: string | undefined;
let origin = '';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function waitForServer(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the app did not answer at ${url} within ${timeoutMs} ms`);
}

before(async () => {
  if (process.env.SKIP_BUILD !== '1') {
    const build = spawnSync('pnpm', ['exec', 'next', 'build'], { cwd: root, env: appEnv, stdio: 'inherit' });
    assert.equal(build.status, 0, 'next build failed');
  }
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  server = spawn('pnpm', ['exec', 'next', 'start', '--hostname', '127.0.0.1', '--port', String(port)], {
    cwd: root,
    env: appEnv,
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  await waitForServer(origin, server);
  profile = mkdtempSync(join(tmpdir(), 'next-chat-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    viewport: { width: 1100, height: 900 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});

after(async () => {
  await context?.close();
  // `next start` runs under pnpm: end the whole process group it leads.
  if (server?.pid !== undefined && server.exitCode === null) process.kill(-server.pid, 'SIGTERM');
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/** Sends one message and waits until the reply (and any compaction after it) has finished. */
async function sendAndWait(page: Page, send: () => Promise<void>): Promise<void> {
  const users = await page.getByTestId('message-user').count();
  await send();
  await page.waitForFunction(
    (count) => document.querySelectorAll('[data-testid="message-user"]').length > count,
    users,
  );
  await page.waitForFunction(
    () => ['ready', 'error'].includes(document.querySelector('main')?.dataset.status ?? ''),
    undefined,
    { timeout: 60_000 },
  );
}

const meterTokens = async (page: Page) =>
  Number(await page.getByTestId('context-meter').getAttribute('data-tokens'));

test('the indicator, the meter and the trimmed notice in a real browser, without console errors', {
  timeout: 600_000,
}, async () => {
  assert.ok(context, 'the browser started');
  const page = context.pages()[0] ?? (await context.newPage());
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(String(error)));
  await page.goto(origin);
  await page.getByTestId('demo-next').waitFor();
  assert.equal(await meterTokens(page), 0, 'the meter starts empty');

  // 1. Chat until a summary is made while the page watches.
  let highest = 0;
  let sent = 0;
  let sawIndicator = false;
  for (; sent < 24 && !sawIndicator; sent++) {
    const indicator = page.getByTestId('compaction-indicator');
    const shown = indicator.waitFor({ state: 'visible', timeout: 60_000 }).then(
      () => true,
      () => false,
    );
    const turn = sendAndWait(page, () => page.getByTestId('demo-next').click());
    const first = await Promise.race([shown, turn.then(() => 'done' as const)]);
    if (first === true) {
      sawIndicator = true;
      // While the summary is made, the meter shows what it is about to replace.
      highest = Math.max(highest, await meterTokens(page));
      await indicator.evaluate((element) => element.scrollIntoView({ block: 'center' }));
      mkdirSync(artifacts, { recursive: true });
      await page.screenshot({ path: join(artifacts, 'mid-compaction.png') });
      console.log(
        `indicator shown after message ${sent + 1}; screenshot saved to artifacts/mid-compaction.png`,
      );
      await indicator.waitFor({ state: 'detached', timeout: 60_000 });
      await page.getByTestId('compaction-done').last().waitFor({ state: 'visible' });
    }
    await turn;
    if (!sawIndicator) highest = Math.max(highest, await meterTokens(page));
  }
  assert.ok(sawIndicator, 'the "Optimizing conversation context…" indicator appeared');
  assert.equal(await page.getByTestId('compaction-indicator').count(), 0, 'the indicator disappeared');
  assert.match(
    (await page.getByTestId('compaction-done').last().textContent()) ?? '',
    /Conversation context optimized/,
  );

  // 2. The meter dropped when the summary was made, and stays low on the next request (which sends
  // the summary instead of the older messages).
  const afterSummary = await meterTokens(page);
  await sendAndWait(page, () => page.getByTestId('demo-next').click());
  const nextRequest = await meterTokens(page);
  console.log(
    `meter: ${highest} tokens before the summary, ${afterSummary} after, ${nextRequest} on the next request`,
  );
  assert.ok(highest > 0 && afterSummary < highest * 0.7, `the meter dropped (${highest} → ${afterSummary})`);
  // The next turn adds its own tool output on top; without the summary it would be over the peak.
  assert.ok(nextRequest < highest, `the meter stayed down (${nextRequest} on the next request)`);

  // 3. The summarizer goes down: the next compaction falls back to dropping the oldest messages.
  await page.getByTestId('outage-toggle').check();
  let trimmed = false;
  for (let attempt = 0; attempt < 6 && !trimmed; attempt++) {
    await sendAndWait(page, async () => {
      await page.getByTestId('chat-input').fill(longPageRequest(100 + attempt));
      await page.getByTestId('chat-input').press('Enter');
    });
    trimmed = (await page.getByTestId('trimmed-notice').count()) > 0;
  }
  assert.ok(trimmed, 'the "Conversation history has been automatically trimmed" notice showed');
  assert.match(
    (await page.getByTestId('trimmed-notice').last().textContent()) ?? '',
    /Conversation history has been automatically trimmed/,
  );

  assert.equal(await page.getByTestId('chat-error').count(), 0, 'no chat error');
  assert.deepEqual(consoleErrors, [], 'no console errors');
  // Keep the demo's messages in use (the page offers them in this order).
  assert.ok(demoMessage(0).length > 0);
});
