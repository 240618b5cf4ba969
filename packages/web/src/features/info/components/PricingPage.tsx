import { CheckOutlined, CloseOutlined } from '@ant-design/icons';
import { Badge, Card, Col, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { limits, planIds, plans, type Plan } from '@linkaudit/core';
import { PageHeading } from '../../../components/ui/PageHeading';

/** /pricing: the four plans of the one plan config (DESIGN §4); plan buttons come with billing. */
export default function PricingPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeading
        title={t('pricing.title')}
        lead={t('pricing.lead', { days: limits.trialDays })}
      />
      <Row gutter={[20, 20]} align="stretch">
        {planIds.map((id) => (
          <Col key={id} xs={24} sm={12} xl={6}>
            <PlanCard plan={plans[id]} />
          </Col>
        ))}
      </Row>
      <Typography.Paragraph type="secondary" className="page-cta">
        {t('pricing.footnote')}
      </Typography.Paragraph>
    </>
  );
}

function PlanCard({ plan }: { plan: Plan }) {
  const { t, i18n } = useTranslation();
  const number = (value: number) => value.toLocaleString(i18n.language);
  const orUnlimited = (value: number | null) =>
    value === null ? t('pricing.unlimited') : number(value);
  const price = plan.monthlyPriceUsd.toLocaleString(i18n.language, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: plan.monthlyPriceUsd === 0 ? 0 : 2,
  });
  const urlsPerScan =
    plan.urlsPerScan > limits.paidSliderMax
      ? t('pricing.unlimitedUpTo', { count: number(plan.urlsPerScan) })
      : number(plan.urlsPerScan);
  const rows: Array<[string, string | boolean]> = [
    [t('pricing.websites'), orUnlimited(plan.websites)],
    [t('pricing.urlsPerScan'), urlsPerScan],
    [t('pricing.urlsPerMonth'), number(plan.urlsPerMonth)],
    [t('pricing.schedules'), plan.schedules === 0 ? false : orUnlimited(plan.schedules)],
    [t('pricing.ruleSelection'), plan.paid],
    [t('pricing.htmlCheck'), plan.htmlCheck],
    [t('pricing.anchors'), plan.paid],
  ];

  const card = (
    <Card
      className={plan.popular ? 'plan-card plan-card-popular' : 'plan-card'}
      title={<h2 className="plan-name">{t(`plans.names.${plan.id}`)}</h2>}
    >
      <div className="plan-price">
        <span className="plan-amount">{price}</span>
        <span className="plan-period">{t('pricing.perMonth')}</span>
      </div>
      <Typography.Paragraph type="secondary" className="plan-tagline">
        {t(`pricing.taglines.${plan.id}`)}
      </Typography.Paragraph>
      <Typography.Paragraph className="plan-trial">
        {plan.trialDays > 0
          ? t('pricing.trial', { days: plan.trialDays })
          : t('pricing.freeForever')}
      </Typography.Paragraph>
      <ul className="plan-features">
        {rows.map(([label, value]) => (
          <li key={label} className={value === false ? 'plan-feature-off' : undefined}>
            {value === false ? (
              <CloseOutlined aria-label={t('pricing.notIncluded')} />
            ) : (
              <CheckOutlined aria-label={t('pricing.included')} />
            )}
            <span>
              {label}
              {typeof value === 'string' && <strong>: {value}</strong>}
            </span>
          </li>
        ))}
      </ul>
    </Card>
  );
  return plan.popular ? (
    <Badge.Ribbon text={t('pricing.popular')} color="#d4380d">
      {card}
    </Badge.Ribbon>
  ) : (
    card
  );
}
