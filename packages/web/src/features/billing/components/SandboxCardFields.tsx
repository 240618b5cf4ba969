import { Col, Form, Input, Row } from 'antd';
import { useImperativeHandle, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { sandboxCardSchema } from '@linkaudit/core';
import { ApiError } from '../../../lib/api-client';
import { createSandboxCardToken, type SandboxCard } from '../api/create-card-token';
import { billingErrorSource, billingMessages, CardError } from '../lib/billing-messages';
import type { CardHandle } from './card-handle';

/** "MM/YY" or "MM/YYYY" as the sandbox token call wants it; NaN when it is neither. */
function parseExpiry(text: string): { expMonth: number; expYear: number } {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(text);
  if (!match) return { expMonth: Number.NaN, expYear: Number.NaN };
  const year = Number(match[2]);
  return { expMonth: Number(match[1]), expYear: year < 100 ? 2000 + year : year };
}

/**
 * The sandbox gateway's card form (DESIGN: card entry is our own form in sandbox mode). It
 * checks the card with the shared schema, then asks the sandbox for a token.
 */
export function SandboxCardFields({
  handle,
  idPrefix,
  autoFocus = false,
}: {
  handle: Ref<CardHandle>;
  idPrefix: string;
  /** The update-card dialog starts at the number (not at its Sign out button). */
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');

  const card = (): SandboxCard => {
    const parsed = sandboxCardSchema.safeParse({ number, ...parseExpiry(expiry), cvc });
    if (parsed.success) return parsed.data;
    const numberWrong = parsed.error.issues.some((issue) => issue.path[0] === 'number');
    throw new CardError(
      numberWrong ? billingMessages.checkCardNumber : billingMessages.cardValidationFailed,
    );
  };

  useImperativeHandle(handle, () => ({
    check: () => void card(),
    createToken: async () => {
      try {
        return (await createSandboxCardToken(card())).id;
      } catch (error) {
        if (error instanceof CardError) throw error;
        // The sandbox's own words (a declined test card) when it gave any.
        const fallback =
          error instanceof ApiError && error.status === 400
            ? 'checkCardNumber'
            : 'cardValidationFailed';
        throw new CardError(billingErrorSource(error, fallback));
      }
    },
  }));

  return (
    <Row gutter={12}>
      <Col span={24}>
        <Form.Item label={t('billing.card.number')} htmlFor={`${idPrefix}-card-number`}>
          <Input
            id={`${idPrefix}-card-number`}
            autoFocus={autoFocus}
            inputMode="numeric"
            autoComplete="cc-number"
            placeholder="4242 4242 4242 4242"
            value={number}
            onChange={(event) => setNumber(event.target.value)}
          />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item label={t('billing.card.expiry')} htmlFor={`${idPrefix}-card-expiry`}>
          <Input
            id={`${idPrefix}-card-expiry`}
            autoComplete="cc-exp"
            placeholder={t('billing.card.expiryPlaceholder')}
            value={expiry}
            onChange={(event) => setExpiry(event.target.value)}
          />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item label={t('billing.card.cvc')} htmlFor={`${idPrefix}-card-cvc`}>
          <Input
            id={`${idPrefix}-card-cvc`}
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            value={cvc}
            onChange={(event) => setCvc(event.target.value)}
          />
        </Form.Item>
      </Col>
    </Row>
  );
}
