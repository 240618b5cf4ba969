import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FeatureGrid } from '../../../components/feature-grid/FeatureGrid';
import { PageHeading } from '../../../components/ui/PageHeading';
import { paths } from '../../../config/paths';

/** /features: everything a scan checks and what the reports give. */
export default function FeaturesPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeading title={t('features.title')} lead={t('features.lead')} />
      <FeatureGrid />
      <Space className="page-cta" wrap>
        <Link to={paths.home.path}>
          <Button type="primary" size="large">
            {t('features.tryIt')}
          </Button>
        </Link>
        <Link to={paths.pricing.path}>
          <Button size="large">{t('features.seePricing')}</Button>
        </Link>
      </Space>
    </>
  );
}
