/**
 * Websites of a plan (DESIGN §4 "websites"): the distinct sites among a user's kept scans (not
 * in the trash) and schedules. A site is what the engine scans as one site: the host name without
 * a leading `www.`, plus the port when it is not the scheme's default (decisions, issue 3).
 */
export function siteOf(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.trim().toLowerCase();
  }
  const host = parsed.hostname.toLowerCase().replace(/^www\./, '');
  return parsed.port ? `${host}:${parsed.port}` : host;
}

/** The distinct sites of a list of addresses (kept scans and schedules). */
export function sitesOf(urls: Iterable<string>): Set<string> {
  const sites = new Set<string>();
  for (const url of urls) sites.add(siteOf(url));
  return sites;
}

export const websiteMessages = {
  /** 400 modelState `url` of a scan or schedule for a new site beyond the plan's websites. */
  limitReached: (allowed: number) =>
    `Your plan allows ${allowed} websites. Delete the scans and schedules of a website or upgrade your plan to scan another.`,
} as const;

/** `websiteMessages.limitReached` read back (the web app translates it). */
export const websiteLimitPattern =
  /^Your plan allows (\d+) websites\. Delete the scans and schedules of a website or upgrade your plan to scan another\.$/;
