import { Card, Col, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { featureList } from './feature-list';

/** The feature blurbs, as cards; the home page shows its selection. */
export function FeatureGrid({ homeOnly = false }: { homeOnly?: boolean }) {
  const { t } = useTranslation();
  const features = featureList.filter((feature) => !homeOnly || feature.onHome);
  return (
    <Row gutter={[20, 20]}>
      {features.map(({ id, icon: Icon }) => (
        <Col key={id} xs={24} sm={12} lg={8}>
          <Card className="feature-card">
            <span className="feature-icon" aria-hidden>
              <Icon />
            </span>
            <Typography.Title level={3} className="feature-title">
              {t(`features.items.${id}.title`)}
            </Typography.Title>
            <Typography.Paragraph type="secondary">
              {t(`features.items.${id}.text`)}
            </Typography.Paragraph>
          </Card>
        </Col>
      ))}
    </Row>
  );
}
