import { Card, Typography } from 'antd';
import type { ReactNode } from 'react';

/** The narrow centred card of the account screens: a heading, a line under it, the form. */
export function PageCard({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="page-card-wrap">
      <Card className="page-card">
        <Typography.Title level={1} className="page-card-title">
          {title}
        </Typography.Title>
        {subtitle && <Typography.Paragraph type="secondary">{subtitle}</Typography.Paragraph>}
        {children}
      </Card>
    </div>
  );
}
