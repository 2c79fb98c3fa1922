import { fileURLToPath } from 'node:url';
import type { NextConfig } from 'next';

/**
 * The Spillway packages are used from their TypeScript sources (no build needed; edits show up on
 * reload), as everywhere else in this repository.
 */
const nextConfig: NextConfig = {
  turbopack: {
    root: fileURLToPath(new URL('../../', import.meta.url)),
    resolveAlias: {
      '@spillway/core': '../../packages/core/src/index.ts',
      '@spillway/ai-sdk-middleware': '../../packages/ai-sdk-middleware/src/index.ts',
      // The middleware's sources import it: without this it would be looked for in its build.
      '@spillway/ai-sdk-prompt': '../../packages/ai-sdk-prompt/src/index.ts',
    },
  },
};

export default nextConfig;
