import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GatewayEvent, PaymentGateway } from '../modules/billing/payment-gateway.js';

/**
 * Our webhook endpoint's stand-in for gateway tests: hands each body and its Stripe-Signature
 * header to the adapter's `parseWebhook` and answers as a route would (200 read, 400 refused).
 * The billing routes themselves are tested with the server.
 */
export interface TestWebhookReceiver {
  url: string;
  events: GatewayEvent[];
  refusals: Error[];
  onEvent(listener: (event: GatewayEvent) => void): void;
  stop(): Promise<void>;
}

export async function startTestWebhookReceiver(
  gateway: () => PaymentGateway,
): Promise<TestWebhookReceiver> {
  const events: GatewayEvent[] = [];
  const refusals: Error[] = [];
  const listeners: ((event: GatewayEvent) => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const signature = req.headers['stripe-signature'];
      let event: GatewayEvent;
      try {
        event = gateway().parseWebhook(
          Buffer.concat(chunks),
          typeof signature === 'string' ? signature : undefined,
        );
      } catch (error) {
        refusals.push(error as Error);
        res.writeHead(400).end();
        return;
      }
      events.push(event);
      for (const listener of listeners) listener(event);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/billing/stripe/webhook`,
    events,
    refusals,
    onEvent: (listener) => listeners.push(listener),
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
