// The behavioural reference: @openai/agents-core@0.20.0's own modules, loaded by file path
// because the package does not export them.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
// The package's main file sits in dist/ (its exports map hides package.json).
const coreDir = dirname(require.resolve('@openai/agents-core'));
const load = (path) => import(pathToFileURL(join(coreDir, path)).href);

export const strict = await load('utils/strictToolSchema.mjs');
export const standard = await load('utils/standardSchema.mjs');
export const { UserError } = await load('errors.mjs');
export const version = JSON.parse(readFileSync(join(coreDir, '..', 'package.json'), 'utf8')).version;
