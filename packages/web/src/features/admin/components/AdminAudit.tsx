import { Input, Table, Typography } from 'antd';
import type { TableProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminAuditEntry } from '@linkaudit/core';
import { useAudit } from '../api/admin-api';

/** Compact JSON of a before/after state (the whole of it on hover). */
function State({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <>—</>;
  const text = JSON.stringify(value);
  return (
    <Typography.Text code className="admin-audit-state" title={JSON.stringify(value, null, 2)}>
      {text.length > 160 ? `${text.slice(0, 160)}…` : text}
    </Typography.Text>
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
    { key: 'before', title: t('admin.audit.before'), render: (_, e) => <State value={e.before} /> },
    { key: 'after', title: t('admin.audit.after'), render: (_, e) => <State value={e.after} /> },
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
