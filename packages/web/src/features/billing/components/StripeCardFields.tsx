import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { Form } from 'antd';
import { useImperativeHandle, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { billingMessages, CardError } from '../lib/billing-messages';
import type { CardHandle } from './card-handle';

/** Stripe.js is loaded once per key, only when a Stripe card form is first shown. */
const stripes = new Map<string, Promise<Stripe | null>>();
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = stripes.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey);
    stripes.set(publishableKey, stripe);
  }
  return stripe;
}

/**
 * Stripe mode: the card is typed into Stripe Elements, so its number goes to Stripe and never
 * to our server; we only receive the token. Loaded lazily (its own chunk) because the sandbox
 * mode, the default, never needs it.
 */
export default function StripeCardFields({
  publishableKey,
  handle,
}: {
  publishableKey: string;
  handle: Ref<CardHandle>;
}) {
  const { i18n } = useTranslation();
  return (
    <Elements
      stripe={stripeFor(publishableKey)}
      options={{ locale: i18n.language === 'zh-CN' ? 'zh' : 'en' }}
    >
      <StripeCard handle={handle} />
    </Elements>
  );
}

function StripeCard({ handle }: { handle: Ref<CardHandle> }) {
  const { t } = useTranslation();
  const stripe = useStripe();
  const elements = useElements();

  useImperativeHandle(
    handle,
    () => ({
      check: () => undefined,
      createToken: async () => {
        const card = elements?.getElement(CardElement);
        if (!stripe || !card) throw new CardError(billingMessages.cardValidationFailed);
        const { token, error } = await stripe.createToken(card);
        // Stripe's own message is the provider's message of SPEC §8.
        if (error) throw new CardError(error.message ?? billingMessages.cardValidationFailed);
        return token.id;
      },
    }),
    [stripe, elements],
  );

  return (
    <Form.Item label={t('billing.card.label')}>
      <div className="stripe-card">
        <CardElement options={{ hidePostalCode: true }} />
      </div>
    </Form.Item>
  );
}
