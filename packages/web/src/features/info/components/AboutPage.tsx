import { Card, Col, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../../components/ui/PageHeading';
import { externalLinks } from '../../../config/paths';

const sections = ['mission', 'how', 'privacy', 'openSource'] as const;

/**
 * /about: SPEC leaves its content open; it tells what LinkAudit is, how a scan treats the sites
 * it visits, and where to reach us (docs/decisions.md, Web app shell).
 */
export default function AboutPage() {
  const { t } = useTranslation();
  return (
    <div className="narrow-page">
      <PageHeading title={t('about.title')} lead={t('about.lead')} />
      <Row gutter={[20, 20]}>
        {sections.map((id) => (
          <Col key={id} xs={24} md={12}>
            <Card className="feature-card">
              <Typography.Title level={2} className="feature-title">
                {t(`about.sections.${id}.title`)}
              </Typography.Title>
              <Typography.Paragraph type="secondary">
                {t(`about.sections.${id}.text`)}
              </Typography.Paragraph>
            </Card>
          </Col>
        ))}
      </Row>
      <Typography.Paragraph className="page-cta">
        {t('about.contact')}{' '}
        <a href={externalLinks.featureRequest} target="_blank" rel="noopener noreferrer">
          {t('footer.featureRequest')}
        </a>
      </Typography.Paragraph>
    </div>
  );
}
