import type { FastifyInstance } from 'fastify';
import websocket from '@fastify/websocket';
import { scanHubPath, type HubMessage } from '@linkaudit/core';
import type { Authenticate } from '../../plugins/authentication.js';
import type { ScanUpdates } from '../scans/scan-updates.js';

export interface RealtimeDeps {
  authenticate: Authenticate;
  updates: ScanUpdates;
}

/**
 * The scan hub (DESIGN §4 Realtime): `GET /hubs/scans?access_token=…` upgrades to a WebSocket
 * that receives core's `HubMessage`s: a hello, then the signed-in user's scan updates only.
 * The 5-second polling of SPEC §4 stays the fallback.
 */
export async function registerRealtimeRoutes(
  app: FastifyInstance,
  deps: RealtimeDeps,
): Promise<void> {
  await app.register(websocket);
  app.route({
    method: 'GET',
    url: scanHubPath,
    // A plain GET (no upgrade) gets SPEC §8's error shape, not an empty 404.
    handler: (_request, reply) => reply.status(400).send({ message: hubMessages.upgradeRequired }),
    wsHandler: (socket, request) => {
      const token = new URL(request.url, 'http://hub').searchParams.get('access_token') ?? '';
      const send = (message: HubMessage) => socket.send(JSON.stringify(message));
      let unsubscribe: (() => void) | undefined;
      socket.on('close', () => unsubscribe?.());
      deps.authenticate(token).then(
        (credential) => {
          if (credential?.kind !== 'user') return socket.close(4401, 'Unauthorized');
          const userId = credential.user.id;
          if (socket.readyState !== socket.OPEN) return;
          unsubscribe = deps.updates.subscribe((update) => {
            if (update.userId === userId) send({ type: 'scan', ...update });
          });
          send({ type: 'hello' });
        },
        () => socket.close(1011, 'Server error'),
      );
    },
  });
}

export const hubMessages = {
  upgradeRequired: 'This address takes WebSocket connections only.',
} as const;
