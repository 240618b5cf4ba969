import { LockOutlined } from '@ant-design/icons';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../config/paths';

/** The note beside every paid-only control a free user sees (SPEC §2, §6). */
export function UpgradeNote() {
  const { t } = useTranslation();
  return (
    <Typography.Text type="warning" className="upgrade-note">
      <LockOutlined /> <Link to={paths.pricing.path}>{t('scan.upgradeToUnlock')}</Link>
    </Typography.Text>
  );
}
