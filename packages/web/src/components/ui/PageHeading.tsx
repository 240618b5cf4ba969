import { Typography } from 'antd';
import type { ReactNode } from 'react';

/** The title block of a content page. */
export function PageHeading({ title, lead }: { title: string; lead?: ReactNode }) {
  return (
    <header className="page-heading">
      <Typography.Title level={1}>{title}</Typography.Title>
      {lead && <Typography.Paragraph className="page-lead">{lead}</Typography.Paragraph>}
    </header>
  );
}
