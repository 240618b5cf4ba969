import { App, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { UrlBox } from './UrlBox';

/** The landing page: what LinkAudit does and the address box to start from. */
export default function HomePage() {
  const { t } = useTranslation();
  const { message } = App.useApp();

  return (
    <section className="home-hero">
      <Typography.Title level={1} className="home-title">
        {t('home.title')}
      </Typography.Title>
      <Typography.Paragraph className="home-subtitle">{t('home.subtitle')}</Typography.Paragraph>
      <UrlBox onScan={(url) => void message.info(t('home.scanComingSoon', { url }))} />
    </section>
  );
}
