/**
 * Node CommonJS loader of the doubles' peers (see `peers.ts`): the files agents-core's own
 * testing module requires, next to it, so the package root is not loaded; the public entries
 * where the layout differs.
 */
import { dirname, join } from 'node:path';
import { PEER_FILES, arePeers, installPeers, peersFrom, type CorePeers } from './peers.js';

function load(): CorePeers {
  try {
    const testing = dirname(require.resolve('@openai/agents-core/testing'));
    const found = peersFrom(require(join(testing, `${PEER_FILES.usage}.js`)), require(join(testing, `${PEER_FILES.manifest}.js`)));
    if (arePeers(found)) return found;
  } catch {
    // the public entries below say what is missing
  }
  return peersFrom(require('@openai/agents-core'), require('@openai/agents-core/sandbox'));
}

installPeers(load());
