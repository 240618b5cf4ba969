import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../../components/ui/PageHeading';
import { externalLinks } from '../../../config/paths';

/** /WhyNotTranslated: why scan rule texts stay in English (SPEC §1). */
export default function WhyNotTranslatedPage() {
  const { t } = useTranslation();
  return (
    <div className="narrow-page">
      <PageHeading title={t('whyNotTranslated.title')} lead={t('whyNotTranslated.lead')} />
      <Typography.Paragraph>{t('whyNotTranslated.reason')}</Typography.Paragraph>
      <Typography.Paragraph>{t('whyNotTranslated.whatIsTranslated')}</Typography.Paragraph>
      <Typography.Paragraph>
        {t('whyNotTranslated.help')}{' '}
        <a href={externalLinks.localisation} target="_blank" rel="noopener noreferrer">
          {t('nav.helpTranslate')}
        </a>
      </Typography.Paragraph>
    </div>
  );
}
