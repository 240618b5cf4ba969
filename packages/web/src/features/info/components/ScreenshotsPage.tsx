import { Card, Col, Image, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../../components/ui/PageHeading';
import { currentLanguage } from '../../../lib/i18n';

/**
 * Screens shown, in the order a new user meets them. The pictures are taken of this very app by
 * `e2e/screenshots/capture.spec.ts --publish` in both languages; the reader sees their own.
 */
export const publishedScreens = ['home', 'features', 'pricing', 'join', 'manage', 'faq'] as const;

/** /screenshots: real screenshots of LinkAudit, in the reader's language. */
export default function ScreenshotsPage() {
  const { t } = useTranslation();
  const language = currentLanguage();
  return (
    <>
      <PageHeading title={t('screenshots.title')} lead={t('screenshots.lead')} />
      <Image.PreviewGroup>
        <Row gutter={[24, 24]}>
          {publishedScreens.map((id) => (
            <Col key={id} xs={24} md={12}>
              <Card
                className="screenshot-card"
                cover={
                  <Image
                    src={`/screenshots/${language}/${id}.jpg`}
                    alt={t(`screenshots.items.${id}.title`)}
                    loading="lazy"
                  />
                }
              >
                <Typography.Title level={2} className="feature-title">
                  {t(`screenshots.items.${id}.title`)}
                </Typography.Title>
                <Typography.Paragraph type="secondary">
                  {t(`screenshots.items.${id}.text`)}
                </Typography.Paragraph>
              </Card>
            </Col>
          ))}
        </Row>
      </Image.PreviewGroup>
    </>
  );
}
