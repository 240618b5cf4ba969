import { Alert, Button, Form, Input, Space, Typography } from 'antd';
import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { Plan } from '@linkaudit/core';
import { translateBillingText } from '../lib/billing-messages';
import { formatUsd, pricePreview } from '../lib/price';
import type { CardHandle } from './card-handle';
import { CardEntry } from './CardEntry';
import type { VoucherState } from './use-voucher';

/**
 * The payment half of checkout and join-and-pay: the voucher, what will be charged and when, and
 * the card, which is not asked for when a 100 % voucher makes the plan free (SPEC §4).
 */
export function CheckoutFields({
  plan,
  voucher,
  cardHandle,
  idPrefix,
  error,
}: {
  plan: Plan;
  voucher: VoucherState;
  cardHandle: Ref<CardHandle>;
  idPrefix: string;
  error?: string;
}) {
  const { t, i18n } = useTranslation();
  const preview = pricePreview(plan, voucher.applied?.coupon);
  const price = formatUsd(preview.monthlyPriceUsd, i18n.language);
  return (
    <>
      <Form.Item
        label={t('billing.voucher.label')}
        htmlFor={`${idPrefix}-voucher`}
        validateStatus={voucher.error ? 'error' : undefined}
        help={voucher.error ? translateBillingText(voucher.error, t) : undefined}
        extra={voucher.applied ? t('billing.voucher.applied') : t('billing.voucher.hint')}
      >
        <Space.Compact block>
          <Input
            id={`${idPrefix}-voucher`}
            value={voucher.text}
            onChange={(event) => voucher.change(event.target.value)}
            onPressEnter={(event) => {
              event.preventDefault();
              void voucher.resolve();
            }}
          />
          <Button loading={voucher.checking} onClick={() => void voucher.resolve()}>
            {t('billing.voucher.apply')}
          </Button>
        </Space.Compact>
      </Form.Item>
      <Typography.Paragraph className="checkout-summary" data-testid="checkout-summary">
        {preview.free
          ? t('billing.checkout.freeWithVoucher', { plan: t(`plans.names.${plan.id}`) })
          : t('billing.checkout.summary', {
              plan: t(`plans.names.${plan.id}`),
              days: preview.trialDays,
              price,
            })}
      </Typography.Paragraph>
      {preview.free ? (
        <Typography.Paragraph type="secondary">{t('billing.checkout.noCard')}</Typography.Paragraph>
      ) : (
        <CardEntry handle={cardHandle} idPrefix={idPrefix} />
      )}
      {error && (
        <Alert type="error" showIcon title={error} role="alert" className="checkout-error" />
      )}
    </>
  );
}
