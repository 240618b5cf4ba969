import { Skeleton } from 'antd';

/**
 * What a screen shows while its code loads: the shape of a page (a title, a lead, blocks of
 * text), not a bare spinner (issue 37), so the first visit shows where things will be.
 */
export function PageLoading() {
  return (
    <div className="page-loading" aria-busy="true">
      <Skeleton.Input active size="large" className="page-loading-title" />
      <Skeleton active paragraph={{ rows: 2 }} title={false} />
      <Skeleton active paragraph={{ rows: 4 }} />
    </div>
  );
}
