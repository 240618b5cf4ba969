import { App, Button, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { plans, type PaidPlanId, type Plan, type PlanId, type UserInfo } from '@linkaudit/core';
import { paths } from '../../../config/paths';
import { busy } from '../../../lib/busy';
import { toastError, toastSuccess } from '../../../lib/notify';
import { useBillingMutation } from '../api/billing-mutation';
import { cancelSubscription } from '../api/cancel-subscription';
import { changeSubscription } from '../api/change-subscription';
import { createSubscription } from '../api/create-subscription';
import { reactivateSubscription } from '../api/reactivate-subscription';
import {
  billingErrorText,
  billingMessages,
  needsCard,
  translateBillingText,
} from '../lib/billing-messages';
import { planAction } from '../lib/plan-action';
import { formatUsd } from '../lib/price';

export type PlanDialog =
  { kind: 'joinAndPay' | 'checkout'; plan: PaidPlanId } | { kind: 'updateCard' };

function formatDate(iso: string, language: string): string {
  return new Date(iso).toLocaleDateString(language, { dateStyle: 'long' });
}

/**
 * The button (and state) under one plan, as SPEC §4 Subscription says choosing it works:
 * dialogs for join-and-pay and checkout, a confirmation for every change of a running
 * subscription, 'Already Cancelled' for a second cancellation.
 */
export function PlanActions({
  plan,
  user,
  onDialog,
}: {
  plan: Plan;
  user: UserInfo | undefined;
  onDialog: (dialog: PlanDialog) => void;
}) {
  const { t, i18n } = useTranslation();
  const { modal } = App.useApp();
  const name = (id: PlanId) => t(`plans.names.${id}`);
  const failed = (error: unknown) => toastError(billingErrorText(error, 'tryAgain', t));
  const change = useBillingMutation(changeSubscription, {
    onSuccess: (state) =>
      toastSuccess(t('billing.change.success', { plan: name(state.paidPlanId) })),
  });
  const recreate = useBillingMutation(createSubscription, {
    onSuccess: (state) =>
      toastSuccess(t('billing.checkout.success', { plan: name(state.paidPlanId) })),
  });
  const cancel = useBillingMutation(cancelSubscription, {
    onSuccess: (endsAt) =>
      toastSuccess(t('billing.cancelPlan.success', { date: formatDate(endsAt, i18n.language) })),
  });
  const reactivate = useBillingMutation(reactivateSubscription, {
    onSuccess: (state) =>
      toastSuccess(t('billing.reactivate.success', { plan: name(state.paidPlanId) })),
  });
  const action = planAction(plan.id, user);
  const price = formatUsd(plan.monthlyPriceUsd, i18n.language);
  const paidId = plan.id as PaidPlanId;

  const confirm = (title: string, content: string, run: () => void) =>
    void modal.confirm({
      title,
      content,
      okText: t('billing.confirm'),
      cancelText: t('billing.cancel'),
      onOk: run,
    });

  switch (action.kind) {
    case 'join':
      return (
        <Link to={paths.join.path}>
          <Button block>{t('billing.actions.joinFree')}</Button>
        </Link>
      );
    case 'joinAndPay':
    case 'checkout':
      return (
        <Button type="primary" block onClick={() => onDialog({ kind: action.kind, plan: paidId })}>
          {t('billing.actions.startTrial', { days: plan.trialDays })}
        </Button>
      );
    case 'recreate':
      return (
        <Button
          type="primary"
          block
          loading={busy(recreate.isPending)}
          onClick={() =>
            confirm(
              t('billing.recreate.title', { plan: name(plan.id) }),
              t('billing.recreate.content', { plan: name(plan.id), price }),
              () =>
                recreate.mutate(paidId, {
                  // A subscription that ended without a card (a 100 % voucher): check out anew.
                  onError: (error) =>
                    needsCard(error) ? onDialog({ kind: 'checkout', plan: paidId }) : failed(error),
                }),
            )
          }
        >
          {t('billing.actions.upgrade')}
        </Button>
      );
    case 'change':
      return (
        <Button
          type={action.upgrade ? 'primary' : 'default'}
          block
          loading={busy(change.isPending)}
          onClick={() =>
            confirm(
              t('billing.change.title', { plan: name(plan.id) }),
              t('billing.change.content', {
                from: name(user?.paidPlanId ?? 'Free'),
                plan: name(plan.id),
                price,
              }),
              () => change.mutate(paidId, { onError: failed }),
            )
          }
        >
          {action.upgrade ? t('billing.actions.upgrade') : t('billing.actions.downgrade')}
        </Button>
      );
    case 'cancel':
      return (
        <Button
          block
          loading={busy(cancel.isPending)}
          onClick={() =>
            confirm(
              t('billing.cancelPlan.title'),
              t('billing.cancelPlan.content', { plan: name(user?.paidPlanId ?? 'Free') }),
              () => cancel.mutate(undefined, { onError: failed }),
            )
          }
        >
          {t('billing.actions.downgrade')}
        </Button>
      );
    case 'alreadyCancelled':
      return (
        <Button
          block
          onClick={() =>
            void modal.warning({
              title: translateBillingText(billingMessages.alreadyCancelled, t),
              content: t('billing.alreadyCancelledDetail'),
              okText: t('billing.ok'),
            })
          }
        >
          {t('billing.actions.downgrade')}
        </Button>
      );
    case 'current':
      return (
        <div className="plan-state">
          <Tag color={action.cancelled ? 'orange' : 'green'}>
            {action.cancelled ? t('billing.state.cancelled') : t('billing.state.current')}
          </Tag>
          {action.trialDaysLeft > 0 && !action.cancelled && (
            <Typography.Text className="plan-state-detail">
              {action.trialDaysLeft === 1
                ? t('billing.state.trialOneDay')
                : t('billing.state.trial', { count: action.trialDaysLeft })}
            </Typography.Text>
          )}
          {action.cancelled && (
            <>
              {action.canceledAt && (
                <Typography.Text className="plan-state-detail">
                  {t('billing.state.cancelledOn', {
                    date: formatDate(action.canceledAt, i18n.language),
                  })}
                </Typography.Text>
              )}
              <Button
                type="primary"
                block
                loading={busy(reactivate.isPending)}
                onClick={() => reactivate.mutate(undefined, { onError: failed })}
              >
                {t('billing.actions.reactivate')}
              </Button>
            </>
          )}
          {plans[plan.id].paid && !action.cancelled && (
            <Button type="link" size="small" onClick={() => onDialog({ kind: 'updateCard' })}>
              {t('billing.actions.updateCard')}
            </Button>
          )}
        </div>
      );
  }
}
