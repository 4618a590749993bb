/**
 * Node CommonJS loader of the doubles' peers (see `peers.ts`): the files agents-core's own
 * testing module requires, next to it, so the package root is not loaded; the public entries
 * where the layout differs.
 */
import { dirname, join } from 'node:path';
import { PEER_FILES, arePeers, installPeers, type CorePeers } from './peers.js';

function load(): CorePeers {
  try {
    const testing = dirname(require.resolve('@openai/agents-core/testing'));
    const usage = require(join(testing, `${PEER_FILES.usage}.js`));
    const manifest = require(join(testing, `${PEER_FILES.manifest}.js`));
    if (arePeers(usage, manifest)) return { Usage: usage.Usage, Manifest: manifest.Manifest, cloneManifest: manifest.cloneManifest };
  } catch {
    // the public entries below say what is missing
  }
  const core = require('@openai/agents-core');
  const sandbox = require('@openai/agents-core/sandbox');
  return { Usage: core.Usage, Manifest: sandbox.Manifest, cloneManifest: sandbox.cloneManifest };
}

installPeers(load());
