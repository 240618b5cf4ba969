import { App, Button, Input, Select, Space, Table, Tooltip, Typography } from 'antd';
import type { TableProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ScanStatus, type AdminScan } from '@linkaudit/core';
import { ScanStatusLabel } from '../../../components/scan-status/ScanStatusLabel';
import { paths, pathTo } from '../../../config/paths';
import { errorMessages, responseStatus, translateMessage } from '../../../lib/errors';
import { formatDuration } from '../../../lib/format';
import { toastError, toastSuccess } from '../../../lib/notify';
import { useAdminScans, useRequeue, useSetFailed, type AdminScanFilter } from '../api/admin-api';
import { ownerName } from '../lib/owner-name';
import { AdminSettingsDialog } from './AdminSettingsDialog';

const statusChoices = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];

/**
 * Every user's scans (SPEC §6 Admin), paged, sorted and filtered on the server: owner, URL,
 * status, priority, queue position, worker, attempts, start and duration, with Set to Failed
 * (confirmed), Requeue and Edit settings.
 */
export function AdminScans() {
  const { t, i18n } = useTranslation();
  const { modal } = App.useApp();
  const [filter, setFilter] = useState<AdminScanFilter>({
    page: 1,
    pageSize: 20,
    sortBy: 'dateCreated',
    sortOrder: 'desc',
  });
  const [editing, setEditing] = useState<AdminScan | null>(null);
  const scans = useAdminScans(filter);
  const setFailed = useSetFailed();
  const requeue = useRequeue();
  const change = (patch: Partial<AdminScanFilter>) =>
    setFilter((current) => ({ ...current, page: 1, ...patch }));
  const failed = (error: unknown) =>
    toastError(
      [
        t('admin.scans.actionFailed'),
        ...errorMessages(error).map((text) => translateMessage(text, t)),
      ].join(' '),
    );

  const confirmFailed = (scan: AdminScan) => {
    void modal.confirm({
      title: t('admin.scans.failTitle'),
      content: t('admin.scans.failText', { url: scan.url, owner: ownerName(scan.ownerEmail, t) }),
      okText: t('admin.scans.setFailed'),
      okButtonProps: { danger: true },
      cancelText: t('scan.answers.close'),
      onOk: () =>
        setFailed.mutateAsync(scan.id).then(
          () => toastSuccess(t('admin.scans.failedDone')),
          (error: unknown) => failed(error),
        ),
    });
  };
  const requeueScan = (scan: AdminScan) =>
    requeue.mutate(
      { id: scan.id },
      {
        onSuccess: (answer) =>
          toastSuccess(
            answer.status === ScanStatus.Cancelling
              ? t('admin.scans.requeueStopping')
              : t('admin.scans.requeued'),
          ),
        onError: failed,
      },
    );

  const columns: TableProps<AdminScan>['columns'] = [
    {
      key: 'owner',
      title: t('admin.scans.owner'),
      dataIndex: 'ownerEmail',
      sorter: true,
      render: (owner: string) => <span className="admin-owner">{ownerName(owner, t)}</span>,
    },
    {
      key: 'url',
      title: t('admin.scans.url'),
      dataIndex: 'url',
      sorter: true,
      render: (url: string, scan) => (
        <Link to={pathTo(paths.report, { scanId: scan.id })} className="admin-url">
          {url}
        </Link>
      ),
    },
    {
      key: 'status',
      title: t('admin.scans.status'),
      sorter: true,
      render: (_, scan) => (
        <Space orientation="vertical" size={0}>
          <ScanStatusLabel status={scan.status} />
          {scan.stopAction && (
            <Typography.Text type="secondary">
              {t(`admin.scans.stopAction.${scan.stopAction}`)}
            </Typography.Text>
          )}
          {scan.logMessage && (
            <Typography.Text type="secondary" className="admin-log">
              {translateMessage(scan.logMessage, t)}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    { key: 'priority', title: t('admin.scans.priority'), dataIndex: 'priority', sorter: true },
    {
      key: 'queue',
      title: t('admin.scans.queue'),
      render: (_, scan) => scan.queuePosition ?? '—',
    },
    {
      key: 'worker',
      title: t('admin.scans.worker'),
      render: (_, scan) =>
        scan.worker ? (
          <Tooltip title={scan.worker}>
            <span className="admin-worker">{scan.worker.split(':').slice(0, 2).join(':')}</span>
          </Tooltip>
        ) : (
          '—'
        ),
    },
    { key: 'attempts', title: t('admin.scans.attempts'), dataIndex: 'attempts', sorter: true },
    {
      key: 'jobStarted',
      title: t('admin.scans.started'),
      sorter: true,
      render: (_, scan) =>
        scan.jobStarted ? new Date(scan.jobStarted).toLocaleString(i18n.language) : '—',
    },
    {
      key: 'duration',
      title: t('admin.scans.duration'),
      sorter: true,
      render: (_, scan) => (scan.jobStarted ? formatDuration(scan.duration, t) : '—'),
    },
    {
      key: 'actions',
      title: t('admin.scans.actions'),
      render: (_, scan) => (
        <Space wrap size={4}>
          <Button size="small" onClick={() => requeueScan(scan)}>
            {t('admin.scans.requeue')}
          </Button>
          <Button size="small" onClick={() => setEditing(scan)}>
            {t('admin.scans.editSettings')}
          </Button>
          <Button
            size="small"
            danger
            disabled={scan.status === ScanStatus.Failed}
            onClick={() => confirmFailed(scan)}
          >
            {t('admin.scans.setFailed')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <div className="admin-scans">
      <Space wrap className="admin-filters">
        <Input.Search
          allowClear
          placeholder={t('admin.scans.filterOwner')}
          aria-label={t('admin.scans.filterOwner')}
          onSearch={(owner) => change({ owner })}
        />
        <Input.Search
          allowClear
          placeholder={t('admin.scans.filterUrl')}
          aria-label={t('admin.scans.filterUrl')}
          onSearch={(url) => change({ url })}
        />
        <Select
          mode="multiple"
          allowClear
          className="admin-status-filter"
          placeholder={t('admin.scans.filterStatus')}
          aria-label={t('admin.scans.filterStatus')}
          options={statusChoices.map((status) => ({
            value: status,
            label: t(`scanStatus.s${status}`),
          }))}
          onChange={(statuses: number[]) =>
            change({ status: statuses.length > 0 ? statuses.join(',') : undefined })
          }
        />
      </Space>
      {scans.isError && (
        <Typography.Text type="danger">
          {t('admin.loadFailed', { status: responseStatus(scans.error) })}
        </Typography.Text>
      )}
      <Table<AdminScan>
        rowKey="id"
        size="small"
        scroll={{ x: true }}
        loading={scans.isLoading}
        columns={columns}
        dataSource={scans.data?.rows ?? []}
        pagination={{
          current: filter.page,
          pageSize: filter.pageSize,
          total: scans.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (total) => t('admin.total', { count: total }),
        }}
        onChange={(pagination, _filters, sorter) => {
          const one = Array.isArray(sorter) ? sorter[0] : sorter;
          setFilter((current) => ({
            ...current,
            page: pagination.current ?? 1,
            pageSize: pagination.pageSize ?? current.pageSize,
            sortBy: one?.order ? String(one.columnKey) : 'dateCreated',
            sortOrder: one?.order === 'ascend' ? 'asc' : 'desc',
          }));
        }}
      />
      {editing && <AdminSettingsDialog scan={editing} onClose={() => setEditing(null)} />}
    </div>
  );
}
