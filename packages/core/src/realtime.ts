import { z } from 'zod';

/**
 * The scan hub of DESIGN §4 (Realtime): `GET /hubs/scans?access_token=…` upgrades to a WebSocket.
 * The server greets with `{ type: 'hello' }`, then pushes `{ type: 'scan', …ScanUpdate }` for the
 * signed-in user's scans. Workers, the PostgreSQL relay, the hub and the web app share this shape.
 */
export const scanHubPath = '/hubs/scans';

/** One scan's status and running totals. Counts arrive mid-crawl, so they are not forced to be whole. */
export const scanUpdateSchema = z.object({
  scanId: z.string(),
  userId: z.string(),
  status: z.number(),
  totalQueuedLinks: z.number(),
  totalLinks: z.number(),
  uniqueLinks: z.number(),
  badLinks: z.number(),
  uniqueBadLinks: z.number(),
  numPages: z.number(),
  durationMs: z.number(),
});
export type ScanUpdate = z.infer<typeof scanUpdateSchema>;

/** What the hub sends down the socket. */
export const hubMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello') }),
  scanUpdateSchema.extend({ type: z.literal('scan') }),
]);
export type HubMessage = z.infer<typeof hubMessageSchema>;
