import { z } from 'zod';

/** GET /api/ServerVersion (SPEC §7): the first 3 characters are the version, the rest the build. */
export const serverVersionSchema = z.object({
  version: z.string().min(3),
  assembledTime: z.string(),
  /**
   * Ours, added to SPEC's fields: this server scans private addresses (127.0.0.1:8080,
   * localhost:3000, intranet hosts), all of them or allow-listed ones, so the address boxes
   * accept them and leave the last word to the server. Optional: an older server leaves it out.
   */
  privateTargets: z.boolean().optional(),
  /**
   * Ours too (issue 35): why this server's scans cannot render pages in a browser (no Chromium
   * where it looks); absent when they can. The scan form says so beside the option.
   */
  renderingUnavailable: z.string().optional(),
});
export type ServerVersion = z.infer<typeof serverVersionSchema>;

/** Splits the combined version string the footer shows as "version" and "build". */
export function splitServerVersion(version: string): { version: string; build: string } {
  return { version: version.slice(0, 3), build: version.slice(3) };
}

/** GET /healthcheck: whether this process and its database answer. */
export const healthcheckSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  uptimeSeconds: z.number().nonnegative(),
  database: z.object({ reachable: z.boolean(), dialect: z.enum(['sqlite', 'postgres']) }),
});
export type Healthcheck = z.infer<typeof healthcheckSchema>;
