import type { TFunction } from 'i18next';
import { sampleReportOwnerEmail } from '@linkaudit/core';

/**
 * How the operator screens name a scan's owner: the e-mail address, or a name for the system
 * account that owns the sample report (its "address" is an internal key, issue 37).
 */
export function ownerName(email: string, t: TFunction): string {
  return email === sampleReportOwnerEmail ? t('admin.scans.sampleOwner') : email;
}
