import { Alert, Skeleton } from 'antd';
import { lazy, Suspense, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { useBillingConfig } from '../api/get-billing-config';
import type { CardHandle } from './card-handle';
import { SandboxCardFields } from './SandboxCardFields';

const StripeCardFields = lazy(() => import('./StripeCardFields'));

/** The card form of the configured gateway (GET /api/billing/config). */
export function CardEntry({
  handle,
  idPrefix,
  autoFocus,
}: {
  handle: Ref<CardHandle>;
  idPrefix: string;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  const config = useBillingConfig();
  if (config.isPending) return <Skeleton active paragraph={{ rows: 2 }} />;
  if (config.isError) return <Alert type="error" showIcon title={t('billing.card.unavailable')} />;
  const { gateway, publishableKey } = config.data;
  if (gateway === 'stripe' && publishableKey) {
    return (
      <Suspense fallback={<Skeleton active paragraph={{ rows: 1 }} />}>
        <StripeCardFields publishableKey={publishableKey} handle={handle} />
      </Suspense>
    );
  }
  return <SandboxCardFields handle={handle} idPrefix={idPrefix} autoFocus={autoFocus} />;
}
