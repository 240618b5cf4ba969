// Types of server.mjs for TypeScript callers (the browser tests serve a generated site with it).
import type { Server } from 'node:http';

export function startSiteServer(
  siteDir: string,
  options?: { latencyMs?: number; port?: number; keepAliveMs?: number },
): Promise<{ server: Server; port: number; files: number }>;
