import { CheckOutlined, CloseOutlined } from '@ant-design/icons';
import { Badge, Card, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { limits, type Plan } from '@linkaudit/core';
import { formatUsd } from '../lib/price';

/** One plan: price, trial, allowances (DESIGN §4), the Popular flag, and its actions below. */
export function PlanCard({
  plan,
  current,
  children,
}: {
  plan: Plan;
  current: boolean;
  children: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const number = (value: number) => value.toLocaleString(i18n.language);
  const orUnlimited = (value: number | null) =>
    value === null ? t('pricing.unlimited') : number(value);
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
  const classes = [
    'plan-card',
    plan.popular && 'plan-card-popular',
    current && 'plan-card-current',
  ];

  const card = (
    <Card
      className={classes.filter(Boolean).join(' ')}
      title={<h2 className="plan-name">{t(`plans.names.${plan.id}`)}</h2>}
    >
      <div className="plan-price">
        <span className="plan-amount">{formatUsd(plan.monthlyPriceUsd, i18n.language)}</span>
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
      <div className="plan-actions">{children}</div>
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
              {typeof value === 'string' && (
                <strong>
                  {t('punctuation.colon')}
                  {value}
                </strong>
              )}
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
