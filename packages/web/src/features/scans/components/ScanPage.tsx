import { Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { limits, planOf } from '@linkaudit/core';
import { PageHeading } from '../../../components/ui/PageHeading';
import { useUser } from '../../../lib/api/get-user-info';
import { useScanUpdates } from '../api/use-scan-updates';
import { ScanForm } from './ScanForm';
import { ScanList } from './ScanList';

/** /scan: the new-scan form and the live list of the user's scans (SPEC §2). */
export default function ScanPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const { user } = useUser();
  const [highlightId, setHighlightId] = useState<string>();
  useScanUpdates();

  useEffect(() => {
    if (!highlightId) return;
    const timer = setTimeout(() => setHighlightId(undefined), limits.newScanHighlightMs);
    return () => clearTimeout(timer);
  }, [highlightId]);

  return (
    <div className="scan-page">
      <PageHeading title={t('scan.title')} />
      {user ? (
        <ScanForm
          key={user.paidPlanId}
          paid={planOf(user.paidPlanId).paid}
          initialUrl={params.get('url') ?? ''}
          onQueued={setHighlightId}
        />
      ) : (
        <Spin />
      )}
      <ScanList highlightId={highlightId} />
    </div>
  );
}
