import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The product version: the first 3 characters of the version string (SPEC §2 footer). */
export const productVersion = '1.0';

export interface BuildInfo {
  /** `1.0` followed by the build id (the git short hash), e.g. `1.0a1b2c3d`. */
  version: string;
  /** ISO time the build was assembled. */
  assembledTime: string;
}

const buildInfoFile = path.resolve(import.meta.dirname, '../build-info.json');

/**
 * The build stamp written by `npm run build`; when running from source (tests, dev) it is
 * derived from git and the start time instead, so the footer always has something true to say.
 */
export function readBuildInfo(): BuildInfo {
  try {
    const stored = JSON.parse(readFileSync(buildInfoFile, 'utf8')) as Partial<BuildInfo>;
    if (typeof stored.version === 'string' && typeof stored.assembledTime === 'string') {
      return { version: stored.version, assembledTime: stored.assembledTime };
    }
  } catch {
    // no stamp yet: fall through to the live values
  }
  return { version: `${productVersion}${gitShortHash()}`, assembledTime: new Date().toISOString() };
}

export function gitShortHash(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: import.meta.dirname,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return 'dev';
  }
}
