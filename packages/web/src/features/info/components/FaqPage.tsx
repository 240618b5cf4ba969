import { Collapse } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeading } from '../../../components/ui/PageHeading';
import { paths } from '../../../config/paths';

const questions = [
  'whatIs',
  'signIn',
  'free',
  'limits',
  'depth',
  'speed',
  'private',
  'robots',
  'export',
  'schedule',
  'cancel',
  'languages',
] as const;

/** /faq: the questions people ask before they sign up. */
export default function FaqPage() {
  const { t } = useTranslation();
  return (
    <div className="narrow-page">
      <PageHeading title={t('faq.title')} lead={t('faq.lead')} />
      <Collapse
        defaultActiveKey={[questions[0]]}
        items={questions.map((id) => ({
          key: id,
          label: t(`faq.items.${id}.question`),
          children: <p className="faq-answer">{t(`faq.items.${id}.answer`)}</p>,
        }))}
      />
      <p className="page-cta">
        {t('faq.more')} <Link to={paths.features.path}>{t('nav.features')}</Link> ·{' '}
        <Link to={paths.pricing.path}>{t('nav.pricing')}</Link>
      </p>
    </div>
  );
}
