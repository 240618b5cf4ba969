import { Select, Table, Tag, Typography } from 'antd';
import type { TableProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { outboxStates, type AdminOutboxRow, type OutboxState } from '@linkaudit/core';
import { useOutbox } from '../api/admin-api';

const stateColors: Record<OutboxState, string> = {
  pending: 'gold',
  sending: 'blue',
  sent: 'green',
  failed: 'red',
};

/**
 * Outgoing mail (issue 36): each message with its state, attempts, last error and when it is
 * tried next or was sent, so an operator sees an SMTP outage and what waits for it.
 */
export function AdminOutbox() {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const [state, setState] = useState<OutboxState | undefined>();
  const outbox = useOutbox(page, state);
  const time = (value: string | null) =>
    value ? new Date(value).toLocaleString(i18n.language) : '—';
  const columns: TableProps<AdminOutboxRow>['columns'] = [
    { key: 'created', title: t('admin.outbox.created'), render: (_, row) => time(row.createdAt) },
    { key: 'recipient', title: t('admin.outbox.recipient'), dataIndex: 'recipient' },
    { key: 'summary', title: t('admin.outbox.subject'), dataIndex: 'summary' },
    {
      key: 'state',
      title: t('admin.outbox.state'),
      render: (_, row) => (
        <Tag color={stateColors[row.state]}>{t(`admin.outbox.states.${row.state}`)}</Tag>
      ),
    },
    { key: 'attempts', title: t('admin.outbox.attempts'), dataIndex: 'attempts' },
    {
      key: 'lastError',
      title: t('admin.outbox.lastError'),
      render: (_, row) =>
        row.lastError ? (
          <Typography.Text type="danger" className="admin-outbox-error" title={row.lastError}>
            {row.lastError.length > 120 ? `${row.lastError.slice(0, 120)}…` : row.lastError}
          </Typography.Text>
        ) : (
          '—'
        ),
    },
    {
      key: 'next',
      title: t('admin.outbox.nextAttempt'),
      render: (_, row) => time(row.nextAttemptAt),
    },
    { key: 'sent', title: t('admin.outbox.sent'), render: (_, row) => time(row.sentAt) },
  ];
  return (
    <div className="admin-outbox">
      <Select<OutboxState | 'all'>
        className="admin-filters"
        aria-label={t('admin.outbox.filter')}
        value={state ?? 'all'}
        style={{ minWidth: 180 }}
        onChange={(value) => {
          setPage(1);
          setState(value === 'all' ? undefined : value);
        }}
        options={[
          { value: 'all', label: t('admin.outbox.allStates') },
          ...outboxStates.map((value) => ({ value, label: t(`admin.outbox.states.${value}`) })),
        ]}
      />
      <Table<AdminOutboxRow>
        rowKey="id"
        size="small"
        scroll={{ x: true }}
        loading={outbox.isLoading}
        columns={columns}
        locale={{ emptyText: t('admin.outbox.empty') }}
        dataSource={outbox.data?.rows ?? []}
        pagination={{
          current: page,
          pageSize: 20,
          total: outbox.data?.total ?? 0,
          onChange: setPage,
          showTotal: (total) => t('admin.total', { count: total }),
        }}
      />
    </div>
  );
}
