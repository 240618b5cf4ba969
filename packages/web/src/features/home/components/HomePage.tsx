import { FileSearchOutlined } from '@ant-design/icons';
import { Button, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { FeatureGrid } from '../../../components/feature-grid/FeatureGrid';
import { paths, pathTo, scanPathFor } from '../../../config/paths';
import { LoginDialogSlot } from '../../../lib/login-dialog';
import { useSessionToken } from '../../../lib/session';
import { useSampleScanId } from '../api/get-sample-scan-id';
import { UrlBox } from './UrlBox';

/**
 * The landing page: the address box (a visitor gets the login dialog, a signed-in user goes to
 * the scan screen with the address), what a scan finds, and the sample report.
 */
export default function HomePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signedIn = useSessionToken() !== null;
  const sample = useSampleScanId();
  const [pendingUrl, setPendingUrl] = useState<string>();

  const scan = (url: string) => {
    if (signedIn) void navigate(scanPathFor(url));
    else setPendingUrl(url);
  };

  return (
    <>
      <section className="home-hero">
        <Typography.Title level={1} className="home-title">
          {t('home.title')}
        </Typography.Title>
        <Typography.Paragraph className="home-subtitle">{t('home.subtitle')}</Typography.Paragraph>
        <UrlBox onScan={scan} />
        {sample.data && (
          <Link to={pathTo(paths.report, { scanId: sample.data })} className="home-sample">
            <Button type="link" icon={<FileSearchOutlined />}>
              {t('home.sampleReport')}
            </Button>
          </Link>
        )}
      </section>
      <section className="home-features" aria-labelledby="home-features-title">
        <Typography.Title level={2} id="home-features-title" className="section-title">
          {t('home.featuresTitle')}
        </Typography.Title>
        <FeatureGrid homeOnly />
        <p className="page-cta">
          <Link to={paths.features.path}>{t('home.allFeatures')}</Link>
        </p>
      </section>
      <LoginDialogSlot
        open={pendingUrl !== undefined}
        onClose={() => setPendingUrl(undefined)}
        onSignedIn={() => pendingUrl && void navigate(scanPathFor(pendingUrl))}
      />
    </>
  );
}
