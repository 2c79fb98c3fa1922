/**
 * The agent's world, generated deterministically: source files, web pages (one of 200 KB) and
 * screenshots (real PNG headers, 1280×800). The tools below read from it.
 */

/** A source file of about `chars` characters. */
export function sourceFile(path: string, chars: number): string {
  const lines = [`// ${path}`];
  let length = 0;
  for (let line = 1; length < chars; line++) {
    const text = `export function handler${line}(request: Request): Response { return route(request, '${path}', ${line}); }`;
    lines.push(text);
    length += text.length + 1;
  }
  return lines.join('\n');
}

/** A web page of about `chars` characters. */
export function webPage(url: string, chars: number): string {
  const parts = [`<html><head><title>${url}</title></head><body>`];
  let length = 0;
  for (let section = 1; length < chars; section++) {
    const text = `<section id="s${section}"><h2>Release 4.${section}</h2><p>The deploy pipeline now caches build layers; rollbacks take ${section % 9} minutes. See https://status.example.com/incidents/${section}.</p></section>`;
    parts.push(text);
    length += text.length;
  }
  return `${parts.join('\n')}</body></html>`;
}

/** A PNG screenshot (a real header, deterministic filler) as base64. */
export function screenshot(seed: number, width = 1280, height = 800, bytes = 60_000): string {
  const data = new Uint8Array(bytes);
  data.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(data.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  data.set([8, 2, 0, 0, 0], 24);
  for (let index = 40; index < bytes; index++) data[index] = (index * 131 + seed * 17) & 0xff;
  return Buffer.from(data).toString('base64');
}

/** What the user asks on turn `turn` (1-based), and the tool the agent should reach for. */
export function userRequest(turn: number): { text: string; tool: 'read_file' | 'fetch_page' | 'screenshot' } {
  if (turn % 5 === 0)
    return {
      text: `Turn ${turn}: take a screenshot of https://app.example.com/dashboard?step=${turn} and check the layout.`,
      tool: 'screenshot',
    };
  if (turn % 7 === 3) {
    return {
      text: `Turn ${turn}: read https://docs.example.com/release-notes/${turn} and tell me what changed.`,
      tool: 'fetch_page',
    };
  }
  return {
    text: `Turn ${turn}: open src/routes/module-${turn}.ts and check the error handling.`,
    tool: 'read_file',
  };
}
