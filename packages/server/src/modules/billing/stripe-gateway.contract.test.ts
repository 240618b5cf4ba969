import { startStripeTestServer } from '../../test-support/stripe-server.js';
import { startTestWebhookReceiver } from '../../test-support/stripe-webhook-receiver.js';
import { describeGatewayContract } from '../../test-support/payment-gateway-contract.js';
import type { PaymentGateway } from './payment-gateway.js';
import { createStripeGateway } from './stripe-gateway.js';

/**
 * The gateway contract, run by the Stripe adapter against the local Stripe-shaped server:
 * cards are made as Elements makes them, time moves on the server's clock, and the events the
 * application hears are the signed webhooks it receives and verifies.
 */
describeGatewayContract('stripe (local Stripe-shaped server)', async () => {
  let gateway: PaymentGateway | null = null;
  const receiver = await startTestWebhookReceiver(() => {
    if (!gateway) throw new Error('A webhook came before the gateway was made');
    return gateway;
  });
  const stripe = await startStripeTestServer({ webhookUrl: receiver.url });
  gateway = createStripeGateway(stripe.gatewayConfig());
  return {
    gateway,
    clock: { advanceDays: (days) => stripe.advanceClock(days * 86_400) },
    cardToken: (number) => stripe.createCardPaymentMethod({ number }),
    onEvent: (listener) => receiver.onEvent(listener),
    close: async () => {
      await stripe.settled();
      await stripe.stop();
      await receiver.stop();
    },
  };
});
