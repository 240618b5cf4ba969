import { z } from 'zod';

/** GET /api/ServerVersion (SPEC §7): the first 3 characters are the version, the rest the build. */
export const serverVersionSchema = z.object({
  version: z.string().min(3),
  assembledTime: z.string(),
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
