import { Button, Form, Modal, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { plans, type PaidPlanId, type UserInfo } from '@linkaudit/core';
import { busy } from '../../../lib/busy';
import { toastSuccess } from '../../../lib/notify';
import { useBillingMutation } from '../api/billing-mutation';
import { processPayment } from '../api/process-payment';
import { billingErrorText } from '../lib/billing-messages';
import type { CardHandle } from './card-handle';
import { CheckoutFields } from './CheckoutFields';
import { collectPayment, newIdempotencyKey } from './payment-steps';
import { useVoucher } from './use-voucher';

/**
 * Checkout (SPEC §2 Dialogs): a signed-in Free user starts a paid plan's trial with a card and,
 * optionally, a voucher. Mounted per opening, so every opening has its own idempotency key.
 */
export function CheckoutDialog({
  planId,
  user,
  onClose,
}: {
  planId: PaidPlanId;
  user: UserInfo;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const plan = plans[planId];
  const voucher = useVoucher();
  const cardHandle = useRef<CardHandle>(null);
  // Kept across double clicks; a refused attempt charged nothing, so the next one gets a new key.
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);
  const [error, setError] = useState<string>();
  const pay = useBillingMutation(
    async () => {
      const payment = await collectPayment(plan, voucher, cardHandle.current);
      if (!payment) return false;
      await processPayment({
        plan: planId,
        cardToken: payment.cardToken,
        voucher: payment.voucher,
        billingUser: { name: `${user.firstName} ${user.lastName}`.trim(), email: user.email },
        idempotencyKey,
      });
      return true;
    },
    {
      onSuccess: (paid) => {
        if (!paid) return;
        toastSuccess(t('billing.checkout.success', { plan: t(`plans.names.${planId}`) }));
        onClose();
      },
    },
  );

  return (
    <Modal
      open
      title={t('billing.checkout.title', { plan: t(`plans.names.${planId}`) })}
      onCancel={onClose}
      destroyOnHidden
      width={480}
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t('billing.cancel')}
        </Button>,
        <Button
          key="pay"
          type="primary"
          loading={busy(pay.isPending)}
          onClick={() => {
            if (pay.isPending) return;
            setError(undefined);
            pay.mutate(undefined, {
              onError: (failure) => {
                setIdempotencyKey(newIdempotencyKey());
                setError(billingErrorText(failure, 'cardValidationFailed', t));
              },
            });
          }}
        >
          {t('billing.checkout.submit')}
        </Button>,
      ]}
    >
      <Typography.Paragraph type="secondary">{t('billing.checkout.lead')}</Typography.Paragraph>
      <Form layout="vertical" requiredMark={false} component="div">
        <CheckoutFields
          plan={plan}
          voucher={voucher}
          cardHandle={cardHandle}
          idPrefix="checkout"
          error={error}
        />
      </Form>
    </Modal>
  );
}
