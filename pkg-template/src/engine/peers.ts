/**
 * The classes of the user's `@openai/agents-core` the doubles share identity with: `Usage`
 * (responses carry the user's `Usage`, and the envelope checks test `instanceof` against it),
 * `Manifest` and `cloneManifest` (a sandbox session's manifest). Each entry installs them before
 * it exports anything: the Node entries load the two files `@openai/agents-core/testing` itself
 * imports (`../usage` and `../sandbox/manifest`, the same module instances the package root
 * re-exports), which keeps the package root (0.6-0.9 s of imports measured here, against about
 * 0.1 s for the two files) out of a test that does not load it itself; the browser and Workers
 * entries import the package's public entries, which bundlers resolve and shake.
 */
import type { Usage as UsageClass } from '@openai/agents-core';
import type { Manifest as ManifestClass, cloneManifest as cloneManifestFn } from '@openai/agents-core/sandbox';

/** What the doubles need from `@openai/agents-core`. */
export interface CorePeers {
  Usage: typeof UsageClass;
  Manifest: typeof ManifestClass;
  cloneManifest: typeof cloneManifestFn;
}

let installed: CorePeers | undefined;

/** Called once by each testing entry, before user code can run. */
export function installPeers(peers: CorePeers): void {
  installed = peers;
}

/** The installed peers; an entry always installs them, so a miss is a packaging bug. */
export function peers(): CorePeers {
  if (installed === undefined) throw new Error('@understudy/agents: the testing entry did not load @openai/agents-core');
  return installed;
}

/** The two files of agents-core the doubles need, relative to its `./testing` module. */
export const PEER_FILES = { usage: '../usage', manifest: '../sandbox/manifest' } as const;

/** The peers read from the modules (or files) that export `Usage` and the manifest's two. */
export function peersFrom(usage: any, manifest: any): CorePeers {
  return { Usage: usage?.Usage, Manifest: manifest?.Manifest, cloneManifest: manifest?.cloneManifest };
}

/** True when every peer is there (else: load the public entries). */
export function arePeers(found: CorePeers): boolean {
  return typeof found.Usage === 'function' && typeof found.Manifest === 'function' && typeof found.cloneManifest === 'function';
}
