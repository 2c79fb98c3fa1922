// ESM consumer: every module is loaded with import().
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { runSmoke } = require('./smoke-body.cjs');
await runSmoke({
  system: 'esm',
  load: (specifier) => import(specifier),
  projectDirectory: dirname(fileURLToPath(import.meta.url)),
});
