import { tool } from 'ai';
import { z } from 'zod';
import { screenshot, sourceFile, webPage } from './workspace';

/**
 * The agent's tools. Their outputs are what makes a real conversation outgrow a context window:
 * whole source files, long web pages, screenshots.
 */
export const tools = {
  read_file: tool({
    description: 'Read a source file of the repository.',
    inputSchema: z.object({ path: z.string().describe('Path of the file, e.g. src/app.ts') }),
    execute: async ({ path }) => ({ path, content: sourceFile(path) }),
  }),
  fetch_page: tool({
    description: 'Fetch a web page and return its HTML.',
    inputSchema: z.object({ url: z.string().describe('The page URL') }),
    // Pages ending in /full are longer (about 5,000 tokens).
    execute: async ({ url }) => ({ url, html: webPage(url, url.endsWith('/full') ? 20_000 : 12_000) }),
  }),
  screenshot: tool({
    description: 'Take a 1280x800 screenshot of a web page.',
    inputSchema: z.object({ url: z.string().describe('The page URL') }),
    execute: async ({ url }) => ({ url, width: 1280, height: 800, png: screenshot(url.length) }),
    // The model gets the picture itself, not a JSON string of base64.
    toModelOutput: ({ output }) => ({
      type: 'content',
      value: [
        { type: 'text', text: `Screenshot of ${output.url} (${output.width}x${output.height}):` },
        { type: 'image-data', data: output.png, mediaType: 'image/png' },
      ],
    }),
  }),
};

export type ChatTools = typeof tools;
