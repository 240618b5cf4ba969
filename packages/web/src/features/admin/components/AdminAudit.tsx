import { Input, Table, Typography } from 'antd';
import type { TableProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminAuditEntry } from '@linkaudit/core';
import { useAudit } from '../api/admin-api';
import { auditChanges } from '../lib/audit-changes';

/**
 * One side of what an action changed: the changed fields only, each with its value on this side
 * ("—" where the record did not have it); the whole record on hover.
 */
function Changes({ entry, side }: { entry: AdminAuditEntry; side: 'before' | 'after' }) {
  const { t } = useTranslation();
  const changes = auditChanges(entry.before, entry.after);
  if (entry[side] === null || entry[side] === undefined) return <>—</>;
  if (changes.length === 0) return <>{t('admin.audit.unchanged')}</>;
  return (
    <ul className="admin-audit-state" title={JSON.stringify(entry[side], null, 2)}>
      {changes.map((change) => (
        <li key={change.field}>
          <Typography.Text code>{change.field}</Typography.Text>
          {t('admin.audit.valueSeparator')}
          {change[side] ?? '—'}
        </li>
      ))}
    </ul>
  );
}

/** The audit log: every administrator action, newest first, with who, when, what, before, after. */
export function AdminAudit() {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const [target, setTarget] = useState<string | undefined>();
  const audit = useAudit(page, target);
  const columns: TableProps<AdminAuditEntry>['columns'] = [
    {
      key: 'at',
      title: t('admin.audit.at'),
      render: (_, entry) => new Date(entry.at).toLocaleString(i18n.language),
    },
    { key: 'who', title: t('admin.audit.who'), dataIndex: 'adminEmail' },
    {
      key: 'action',
      title: t('admin.audit.action'),
      render: (_, entry) => t(`admin.audit.actions.${entry.action.replace('.', '_')}`),
    },
    {
      key: 'target',
      title: t('admin.audit.target'),
      render: (_, entry) => (
        <Typography.Text className="admin-audit-target">
          {t(`admin.audit.targets.${entry.targetType}`)} {entry.targetId}
        </Typography.Text>
      ),
    },
    {
      key: 'before',
      title: t('admin.audit.before'),
      render: (_, entry) => <Changes entry={entry} side="before" />,
    },
    {
      key: 'after',
      title: t('admin.audit.after'),
      render: (_, entry) => <Changes entry={entry} side="after" />,
    },
  ];
  return (
    <div className="admin-audit">
      <Input.Search
        allowClear
        className="admin-filters"
        placeholder={t('admin.audit.filter')}
        aria-label={t('admin.audit.filter')}
        onSearch={(value) => {
          setPage(1);
          setTarget(value.trim() || undefined);
        }}
      />
      <Table<AdminAuditEntry>
        rowKey="id"
        size="small"
        scroll={{ x: true }}
        loading={audit.isLoading}
        columns={columns}
        dataSource={audit.data?.rows ?? []}
        pagination={{
          current: page,
          pageSize: 20,
          total: audit.data?.total ?? 0,
          onChange: setPage,
          showTotal: (total) => t('admin.total', { count: total }),
        }}
      />
    </div>
  );
}
