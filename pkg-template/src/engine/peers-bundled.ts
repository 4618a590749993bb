/**
 * Browser and Workers loader of the doubles' peers (see `peers.ts`): the public entries of
 * `@openai/agents-core`, which bundlers resolve and shake.
 */
import { Usage } from '@openai/agents-core';
import { Manifest, cloneManifest } from '@openai/agents-core/sandbox';
import { installPeers } from './peers.js';

installPeers({ Usage, Manifest, cloneManifest });
