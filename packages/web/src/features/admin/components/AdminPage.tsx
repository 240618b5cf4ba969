import { Alert, Spin, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { PageHeading } from '../../../components/ui/PageHeading';
import { signInPath } from '../../../config/paths';
import { useUser } from '../../../lib/api/get-user-info';

import { AdminAudit } from './AdminAudit';
import { AdminHealth } from './AdminHealth';
import { AdminOutbox } from './AdminOutbox';
import { AdminScans } from './AdminScans';
import { AdminUsers } from './AdminUsers';
import { AdminVouchers } from './AdminVouchers';

/**
 * /admin (SPEC §2, §6 Admin): every user's scans, users, vouchers, the audit log, outgoing mail
 * and health.
 * Someone who is not an administrator is sent to sign in, as for any protected screen (the
 * server refuses every admin call anyway).
 */
export default function AdminPage() {
  const { t } = useTranslation();
  const { user, isLoading } = useUser();
  const location = useLocation();
  if (isLoading) return <Spin className="admin-loading" />;
  if (!user?.roles.includes('admin')) {
    return <Navigate to={signInPath(location.pathname + location.search)} replace />;
  }
  return (
    <div className="admin-page">
      <PageHeading title={t('admin.title')} lead={t('admin.lead')} />
      <Alert type="info" showIcon title={t('admin.beyondPlan')} className="admin-note" />
      <Tabs
        destroyOnHidden
        items={[
          { key: 'scans', label: t('admin.tabs.scans'), children: <AdminScans /> },
          { key: 'users', label: t('admin.tabs.users'), children: <AdminUsers /> },
          { key: 'vouchers', label: t('admin.tabs.vouchers'), children: <AdminVouchers /> },
          { key: 'audit', label: t('admin.tabs.audit'), children: <AdminAudit /> },
          { key: 'mail', label: t('admin.tabs.mail'), children: <AdminOutbox /> },
          { key: 'health', label: t('admin.tabs.health'), children: <AdminHealth /> },
        ]}
      />
    </div>
  );
}
