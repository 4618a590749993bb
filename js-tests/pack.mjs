// The package as users get it, for the packaging suites: `npm pack` of the built folder and
// scratch projects that install the tarball.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Runs a command; its stdout (a failure throws with stdout and stderr attached). */
export const sh = (cmd, args, cwd, env) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: env ? { ...process.env, ...env } : undefined });

/**
 * What `tsc -p dir` prints (its errors), `''` when the project type-checks; `from` is the folder
 * whose `node_modules/typescript` runs (default: the project's own).
 */
export function tscOutput(dir, from = dir) {
  try {
    sh(process.execPath, [join(from, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], dir);
    return '';
  } catch (error) {
    return `${error.stdout}${error.stderr}`;
  }
}

/** A scratch folder with the packed tarball; `dispose()` removes it. */
export function packed(prefix) {
  const scratch = mkdtempSync(join(tmpdir(), prefix));
  const info = JSON.parse(sh('npm', ['pack', '--json', '--pack-destination', scratch, join(root, 'build', 'npm')], root))[0];
  const tarball = join(scratch, info.filename);
  return {
    scratch,
    tarball,
    files: info.files.map((f) => f.path),
    /**
     * A project `name` with `manifest` and `files` (path -> text) that installs the tarball and
     * `deps`. Not `--offline`: a fresh machine's npm cache holds the tarballs the workspace
     * install fetched but not the registry metadata a new project resolves against, so npm asks
     * the registry for what it lacks and takes the rest from the cache.
     */
    project(name, manifest, files, deps = []) {
      const dir = join(scratch, name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, ...manifest }));
      for (const [file, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, file)), { recursive: true });
        writeFileSync(join(dir, file), text);
      }
      sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, ...deps], dir);
      return dir;
    },
    dispose: () => rmSync(scratch, { recursive: true, force: true }),
  };
}
