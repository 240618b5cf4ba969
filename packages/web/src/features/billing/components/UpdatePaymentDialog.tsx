import { LogoutOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Modal, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { busy } from '../../../lib/busy';
import { toastSuccess } from '../../../lib/notify';
import { useBillingMutation } from '../api/billing-mutation';
import { updatePaymentDetails } from '../api/update-payment-details';
import { billingErrorText } from '../lib/billing-messages';
import type { CardHandle } from './card-handle';
import { CardEntry } from './CardEntry';
import { newIdempotencyKey } from './payment-steps';

/**
 * Update payment details (SPEC §2 Dialogs). `forced` after a failed payment (SPEC §6): no close
 * button, Escape and the backdrop do nothing, and the only other way out is signing out.
 */
export function UpdatePaymentDialog(
  props:
    | { forced: true; onSignOut: () => void; signingOut: boolean }
    | { forced: false; onClose: () => void },
) {
  const { t } = useTranslation();
  const cardHandle = useRef<CardHandle>(null);
  // Kept across double clicks; a refused attempt charged nothing, so the next one gets a new key.
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);
  const [error, setError] = useState<string>();
  const update = useBillingMutation(
    async () => {
      if (!cardHandle.current) throw new Error('The card form is not ready.');
      const cardToken = await cardHandle.current.createToken();
      return updatePaymentDetails({ cardToken, idempotencyKey });
    },
    {
      onSuccess: () => {
        toastSuccess(t('billing.updateCard.success'));
        if (!props.forced) props.onClose();
      },
    },
  );

  const submit = (
    <Button
      key="update"
      type="primary"
      loading={busy(update.isPending)}
      onClick={() => {
        if (update.isPending) return;
        setError(undefined);
        update.mutate(undefined, {
          onError: (failure) => {
            setIdempotencyKey(newIdempotencyKey());
            setError(billingErrorText(failure, 'updateCardFailed', t));
          },
        });
      }}
    >
      {t('billing.updateCard.submit')}
    </Button>
  );
  const footer = props.forced
    ? [
        <Button
          key="sign-out"
          icon={<LogoutOutlined />}
          loading={busy(props.signingOut)}
          onClick={props.onSignOut}
        >
          {t('nav.signOut')}
        </Button>,
        submit,
      ]
    : [
        <Button key="cancel" onClick={props.onClose}>
          {t('billing.cancel')}
        </Button>,
        submit,
      ];

  return (
    <Modal
      open
      title={t('billing.updateCard.title')}
      footer={footer}
      width={460}
      destroyOnHidden
      {...(props.forced
        ? { closable: false, keyboard: false, mask: { closable: false } }
        : { onCancel: props.onClose })}
    >
      {props.forced && (
        <Alert
          type="warning"
          showIcon
          title={t('billing.updateCard.failedPayment')}
          description={t('billing.updateCard.whyForced')}
          className="update-card-reason"
        />
      )}
      <Typography.Paragraph type="secondary">{t('billing.updateCard.lead')}</Typography.Paragraph>
      <Form layout="vertical" requiredMark={false} component="div">
        <CardEntry handle={cardHandle} idPrefix="update-card" autoFocus />
        {error && <Alert type="error" showIcon title={error} role="alert" />}
      </Form>
    </Modal>
  );
}
