import { accessSync, constants } from 'node:fs';

/** Where Debian (and most Linux distributions) install Chromium; never a downloaded browser. */
const knownPaths = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** The Chromium to render with, or why there is none. */
export type ChromiumLocation = { found: true; path: string } | { found: false; reason: string };

/**
 * The browser rendering uses: `configured` (EngineOptions.chromiumPath), else CHROMIUM_PATH,
 * else the first installed of the usual paths. Only checked to exist and be executable: whether
 * it starts is learnt by starting it.
 */
export function locateChromium(
  configured: string | undefined,
  environment: NodeJS.ProcessEnv = process.env,
): ChromiumLocation {
  const asked = configured ?? environment.CHROMIUM_PATH;
  if (asked) {
    return executable(asked)
      ? { found: true, path: asked }
      : { found: false, reason: renderUnavailable(`${asked} is not an executable file`) };
  }
  const path = knownPaths.find(executable);
  return path
    ? { found: true, path }
    : {
        found: false,
        reason: renderUnavailable(
          `no Chromium found (install Debian's chromium package or set CHROMIUM_PATH)`,
        ),
      };
}

/** Why scans with this configuration cannot render pages; undefined when a Chromium is there. */
export function renderingUnavailable(configured?: string): string | undefined {
  const chromium = locateChromium(configured);
  return chromium.found ? undefined : chromium.reason;
}

/** The sentence a report shows when a scan asked to render pages and could not. */
export function renderUnavailable(why: string): string {
  return `Pages were not rendered: ${why}. The rest of the scan read the pages' HTML as usual.`;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
