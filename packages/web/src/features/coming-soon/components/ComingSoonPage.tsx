import { RocketOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';

export type ComingFeature = 'scan' | 'report' | 'printReport' | 'reportingService';

/** The place of a screen that arrives in the next release, so routes and menus work today. */
export function ComingSoonPage({ feature }: { feature: ComingFeature }) {
  const { t } = useTranslation();
  return (
    <Result
      className="coming-soon"
      icon={<RocketOutlined />}
      title={<h1 className="coming-soon-title">{t(`comingSoon.${feature}.title`)}</h1>}
      subTitle={
        <>
          {t(`comingSoon.${feature}.description`)}
          <br />
          {t('comingSoon.nextRelease')}
        </>
      }
      extra={
        <Link to={paths.features.path}>
          <Button type="primary">{t('comingSoon.seeFeatures')}</Button>
        </Link>
      }
    />
  );
}

export const ScanComingSoon = () => <ComingSoonPage feature="scan" />;
export const ReportComingSoon = () => <ComingSoonPage feature="report" />;
export const PrintReportComingSoon = () => <ComingSoonPage feature="printReport" />;
export const ReportingServiceComingSoon = () => <ComingSoonPage feature="reportingService" />;
