import { DeleteOutlined, StopOutlined } from '@ant-design/icons';
import { App, Button, Card, Space, Switch, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { canCancel, isFinishedStatus, ScanStatus, type Scan } from '@linkaudit/core';
import { ScanStatusLabel } from '../../../components/scan-status/ScanStatusLabel';
import { ResponsiveTable } from '../../../components/tables/ResponsiveTable';
import { paths, pathTo } from '../../../config/paths';
import { useScans } from '../../../lib/api/get-scans';
import { responseStatus } from '../../../lib/errors';
import { formatDuration } from '../../../lib/format';
import { useCancelScan } from '../api/cancel-scan';
import { useDeleteScan } from '../api/delete-scan';
import { LiveReport } from './LiveReport';

/** A finished scan that checked links opens its report (SPEC §2). */
const hasReport = (scan: Scan) => isFinishedStatus(scan.status) && scan.totalLinks > 0;

/** The user's scans with live status, counts, queue position, cancel and delete (SPEC §2, §4). */
export function ScanList({ highlightId }: { highlightId?: string }) {
  const { t, i18n } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const scans = useScans();
  const cancel = useCancelScan();
  const remove = useDeleteScan(t('scan.list.deleteFailed'));
  const [showCompleted, setShowCompleted] = useState(true);
  const rows = (scans.data ?? []).filter((scan) => showCompleted || !isFinishedStatus(scan.status));

  const confirmDelete = (scan: Scan) => {
    void modal.confirm({
      title: t('scan.list.deleteTitle'),
      content: t('scan.list.deleteText', { url: scan.url }),
      okText: t('scan.list.delete'),
      okButtonProps: { danger: true },
      cancelText: t('scan.answers.close'),
      onOk: () => remove.mutateAsync(scan.id),
    });
  };

  return (
    <Card
      className="scan-list"
      title={t('scan.list.title')}
      extra={
        <Space>
          <Switch
            id="show-completed"
            checked={showCompleted}
            onChange={setShowCompleted}
            size="small"
          />
          <label htmlFor="show-completed">{t('scan.list.showCompleted')}</label>
        </Space>
      }
    >
      {scans.isError && (
        <Typography.Text type="danger">
          {t('scan.list.loadFailed', { status: responseStatus(scans.error) })}
        </Typography.Text>
      )}
      <ResponsiveTable<Scan>
        rowKey="id"
        cardLabel={(scan) => scan.url}
        size="middle"
        loading={scans.isPending}
        dataSource={rows}
        scroll={{ x: 900 }}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        locale={{ emptyText: t('scan.list.empty') }}
        rowClassName={(scan) =>
          [scan.id === highlightId ? 'scan-row-new' : '', hasReport(scan) ? 'scan-row-link' : '']
            .filter(Boolean)
            .join(' ')
        }
        onRow={(scan) => ({
          'data-scan-id': scan.id,
          onClick: (event) => {
            if ((event.target as HTMLElement).closest('button, a, .ant-table-row-expand-icon'))
              return;
            if (hasReport(scan)) void navigate(pathTo(paths.report, { scanId: scan.id }));
          },
        })}
        expandable={{
          expandedRowRender: (scan) => <LiveReport scanId={scan.id} status={scan.status} />,
        }}
        columns={[
          {
            title: t('scan.list.status'),
            dataIndex: 'status',
            width: 170,
            render: (status: number) => <ScanStatusLabel status={status} />,
          },
          {
            title: t('scan.list.url'),
            dataIndex: 'url',
            width: 200,
            ellipsis: true,
            render: (url: string, scan) =>
              hasReport(scan) ? (
                <Link to={pathTo(paths.report, { scanId: scan.id })}>{url}</Link>
              ) : (
                url
              ),
          },
          {
            title: t('scan.list.created'),
            dataIndex: 'dateCreated',
            width: 160,
            render: (date: string) => new Date(date).toLocaleString(i18n.language),
          },
          {
            title: t('scan.list.duration'),
            dataIndex: 'duration',
            width: 120,
            render: (duration: number, scan) =>
              scan.status === ScanStatus.Queued ? '' : formatDuration(duration, t),
          },
          {
            title: t('scan.list.links'),
            dataIndex: 'totalLinks',
            width: 90,
            render: (total: number, scan) => (
              <Tooltip title={t('scan.list.uniqueLinks', { count: scan.uniqueLinks })}>
                <span className="scan-links">{total}</span>
              </Tooltip>
            ),
          },
          {
            title: t('scan.list.badLinks'),
            dataIndex: 'badLinks',
            width: 100,
            // Without the links the owner ignored (issue 27 triage); how many, said beside it.
            render: (bad: number, scan) => {
              const ignored = scan.ignoredBadLinks ?? 0;
              return (
                <Tooltip
                  title={
                    <>
                      <div>{t('scan.list.uniqueBadLinks', { count: scan.uniqueBadLinks })}</div>
                      {ignored > 0 && (
                        <div>{t('scan.list.ignoredBadLinksTip', { count: ignored })}</div>
                      )}
                    </>
                  }
                >
                  <span>
                    <Typography.Text
                      className="scan-bad-links"
                      type={bad > 0 ? 'danger' : undefined}
                    >
                      {bad}
                    </Typography.Text>
                    {ignored > 0 && (
                      <Typography.Text
                        type="secondary"
                        className="scan-ignored-links"
                        style={{ display: 'block', fontSize: 12 }}
                      >
                        {t('scan.list.ignoredBadLinks', { count: ignored })}
                      </Typography.Text>
                    )}
                  </span>
                </Tooltip>
              );
            },
          },
          {
            title: t('scan.list.queue'),
            dataIndex: 'queuePosition',
            width: 90,
            render: (position: number | null, scan) =>
              scan.status === ScanStatus.Queued && position ? `#${position}` : '',
          },
          {
            title: t('scan.list.actions'),
            key: 'actions',
            width: 100,
            // Pinned, so cancel and delete stay in view while the other columns scroll.
            fixed: 'right',
            render: (_, scan) => (
              <Space>
                {canCancel(scan.status) && (
                  <Tooltip title={t('scan.list.cancel')}>
                    <Button
                      size="small"
                      icon={<StopOutlined />}
                      aria-label={t('scan.list.cancel')}
                      onClick={() => cancel.mutate(scan.id)}
                    />
                  </Tooltip>
                )}
                <Tooltip title={t('scan.list.delete')}>
                  <Button
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('scan.list.delete')}
                    onClick={() => confirmDelete(scan)}
                  />
                </Tooltip>
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}
