import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { ScanStatus } from '@linkaudit/core';
import { translateMessage } from '../../lib/errors';

/**
 * Why a scan failed (issue 37), where a failed scan is shown: the scan list's expanded row and
 * the report. The server's `logMessage` (core's scan-failures.ts) in the interface language; a
 * failed scan without one still says it failed rather than "no broken link found".
 */
export function ScanFailureNote({
  status,
  logMessage,
}: {
  status: number;
  logMessage: string | null | undefined;
}) {
  const { t } = useTranslation();
  if (status !== ScanStatus.Failed) return null;
  return (
    <Alert
      className="scan-failure"
      type="error"
      showIcon
      title={t('scanFailure.title')}
      description={logMessage ? translateMessage(logMessage, t) : t('scanFailure.noReason')}
    />
  );
}
