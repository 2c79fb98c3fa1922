/**
 * The demo's user messages, in order: file reads, a screenshot and long web pages, enough to fill
 * the (small) window a few times over. The page offers them one by one; the self-check and the
 * browser test send them.
 */
export const DEMO_MESSAGES: readonly string[] = [
  'Read src/app.ts',
  'Read src/db/pool.ts',
  'Take a screenshot of https://app.example.com/dashboard',
  'Read src/routes/orders.ts',
  'Read src/routes/users.ts',
  'Fetch https://docs.example.com/release-notes/4 and tell me what changed',
  'Read src/middleware/auth.ts',
  'Take a screenshot of https://app.example.com/settings',
  'Read src/jobs/cleanup.ts',
  'Fetch https://docs.example.com/release-notes/5 and tell me what changed',
  'Read src/config.ts',
  'Read src/routes/admin.ts',
  'Take a screenshot of https://app.example.com/reports',
  'Fetch https://docs.example.com/release-notes/6 and tell me what changed',
  'Read src/util/retry.ts',
  'Read src/util/logger.ts',
];

/** The demo message after `sent` messages (wrapping around). */
export function demoMessage(sent: number): string {
  return DEMO_MESSAGES[sent % DEMO_MESSAGES.length]!;
}

/** A request for a very long web page (over half the demo window): fills it at once. */
export function longPageRequest(release: number): string {
  return `Fetch https://docs.example.com/release-notes/${release}/full and tell me what changed`;
}
