import { Button, Form, Modal, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { plans, type BillingUser, type PaidPlanId } from '@linkaudit/core';
import { RegistrationFields } from '../../../components/account/RegistrationFields';
import { paths } from '../../../config/paths';
import { busy } from '../../../lib/busy';
import { useSchemaRules } from '../../../lib/form';
import { toastSuccess } from '../../../lib/notify';
import { useBillingMutation } from '../api/billing-mutation';
import { joinAndSignIn, joinFormSchema, type JoinForm } from '../api/join';
import { processPayment } from '../api/process-payment';
import { billingErrorText } from '../lib/billing-messages';
import { pricePreview } from '../lib/price';
import type { CardHandle } from './card-handle';
import { CheckoutFields } from './CheckoutFields';
import { newIdempotencyKey } from './payment-steps';
import { useVoucher } from './use-voucher';

/**
 * Join-and-pay (SPEC §2 Dialogs): a visitor who picks a paid plan makes the account and starts
 * the trial in one dialog. Once the account is made, a retry (a declined card, a mistyped
 * voucher) only pays: it never registers twice.
 */
export function JoinAndPayDialog({ planId, onClose }: { planId: PaidPlanId; onClose: () => void }) {
  const { t } = useTranslation();
  const plan = plans[planId];
  const [form] = Form.useForm<JoinForm>();
  const rules = useSchemaRules(joinFormSchema);
  const voucher = useVoucher();
  const cardHandle = useRef<CardHandle>(null);
  // Kept across double clicks; a refused attempt charged nothing, so the next one gets a new key.
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);
  const [billingUser, setBillingUser] = useState<BillingUser>();
  const [error, setError] = useState<string>();

  const join = useBillingMutation(
    async (values: JoinForm) => {
      const card = cardHandle.current;
      // ValidateCoupon needs no sign-in (SPEC §7): a refused voucher, and a card that cannot be
      // right when one is needed, stop the dialog before an account is made.
      const applied = await voucher.resolve();
      if (applied === false) return false;
      const free = pricePreview(plan, applied?.coupon).free;
      if (!free) card?.check();
      let billed = billingUser;
      if (!billed) {
        const account = await joinAndSignIn(values);
        billed = { name: `${account.firstName} ${account.lastName}`, email: account.username };
        setBillingUser(billed);
      }
      const cardToken = free || !card ? null : await card.createToken();
      await processPayment({
        plan: planId,
        cardToken,
        voucher: applied?.code,
        billingUser: billed,
        idempotencyKey,
      });
      return true;
    },
    {
      onSuccess: (paid) => {
        if (!paid) return;
        toastSuccess(t('billing.join.success', { plan: t(`plans.names.${planId}`) }));
        onClose();
      },
    },
  );

  const submit = async () => {
    if (join.isPending) return;
    setError(undefined);
    const values = billingUser
      ? (form.getFieldsValue(true) as JoinForm)
      : await form.validateFields();
    join.mutate(values, {
      // Registration refusals (an address already taken) come as the server's own texts.
      onError: (failure) => {
        setIdempotencyKey(newIdempotencyKey());
        setError(billingErrorText(failure, 'cardValidationFailed', t));
      },
    });
  };

  return (
    <Modal
      open
      title={t('billing.join.title', { plan: t(`plans.names.${planId}`) })}
      onCancel={onClose}
      destroyOnHidden
      width={520}
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t('billing.cancel')}
        </Button>,
        <Button
          key="join"
          type="primary"
          loading={busy(join.isPending)}
          onClick={() => void submit().catch(() => undefined)}
        >
          {t('billing.join.submit')}
        </Button>,
      ]}
    >
      <Typography.Paragraph type="secondary">
        {t('billing.join.lead')}{' '}
        <Link to={paths.signIn.path} onClick={onClose}>
          {t('billing.join.signIn')}
        </Link>
      </Typography.Paragraph>
      <Form<JoinForm>
        form={form}
        layout="vertical"
        requiredMark={false}
        name="join-and-pay"
        disabled={billingUser !== undefined}
      >
        <RegistrationFields rules={rules} passwordsSideBySide />
      </Form>
      <Form layout="vertical" requiredMark={false} component="div">
        <CheckoutFields
          plan={plan}
          voucher={voucher}
          cardHandle={cardHandle}
          idPrefix="join-and-pay"
          error={error}
        />
      </Form>
    </Modal>
  );
}
