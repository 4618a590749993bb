/**
 * Node ES module loader of the doubles' peers (see `peers.ts`): the files agents-core's own
 * testing module imports, by the URL it resolves to, so the package root (about a second of
 * imports) is not loaded for a test that does not load it itself. Falls back to the public
 * entries where `import.meta.resolve` is missing or the layout differs.
 */
import { PEER_FILES, arePeers, installPeers, peersFrom, type CorePeers } from './peers.js';

async function load(): Promise<CorePeers> {
  try {
    const testing = import.meta.resolve('@openai/agents-core/testing');
    const found = peersFrom(
      ...(await Promise.all([import(new URL(`${PEER_FILES.usage}.mjs`, testing).href), import(new URL(`${PEER_FILES.manifest}.mjs`, testing).href)])),
    );
    if (arePeers(found)) return found;
  } catch {
    // the public entries below say what is missing
  }
  return peersFrom(...(await Promise.all([import('@openai/agents-core'), import('@openai/agents-core/sandbox')])));
}

installPeers(await load());
