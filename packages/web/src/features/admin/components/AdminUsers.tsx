import { App, Button, Input, Space, Table, Tag, Typography } from 'antd';
import type { TableProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminUser } from '@linkaudit/core';
import { errorMessages, responseStatus, translateMessage } from '../../../lib/errors';
import { toastError, toastSuccess } from '../../../lib/notify';
import { useAdminUsers, useSetDisabled, useSetRole, type AdminUserFilter } from '../api/admin-api';

/**
 * Users: plan, trial or cancellation, credit used this period, role, created and last sign-in;
 * grant or revoke admin, disable (scans stop, sign-in refused, nothing deleted) or enable.
 */
export function AdminUsers() {
  const { t, i18n } = useTranslation();
  const { modal } = App.useApp();
  const [filter, setFilter] = useState<AdminUserFilter>({
    page: 1,
    pageSize: 20,
    sortBy: 'created',
    sortOrder: 'desc',
  });
  const users = useAdminUsers(filter);
  const setRole = useSetRole();
  const setDisabled = useSetDisabled();
  const date = (value: string | null) =>
    value ? new Date(value).toLocaleString(i18n.language) : t('admin.users.never');
  const failed = (error: unknown) =>
    toastError(
      [
        t('admin.scans.actionFailed'),
        ...errorMessages(error).map((text) => translateMessage(text, t)),
      ].join(' '),
    );

  const confirmDisable = (user: AdminUser) => {
    void modal.confirm({
      title: t('admin.users.disableTitle', { email: user.email }),
      content: t('admin.users.disableText'),
      okText: t('admin.users.disable'),
      okButtonProps: { danger: true },
      cancelText: t('scan.answers.close'),
      onOk: () =>
        setDisabled.mutateAsync({ id: user.id, disabled: true }).then(
          () => toastSuccess(t('admin.users.disabledDone')),
          (error: unknown) => failed(error),
        ),
    });
  };

  const plan = (user: AdminUser) => {
    const state = user.cancelAtPeriodEnd
      ? t('admin.users.cancelling')
      : user.subscriptionStatus === 'trialing' && user.trialEnd
        ? t('admin.users.trialUntil', {
            date: new Date(user.trialEnd).toLocaleDateString(i18n.language),
          })
        : user.subscriptionStatus
          ? t(`admin.users.subscription.${user.subscriptionStatus}`, {
              defaultValue: user.subscriptionStatus,
            })
          : null;
    return (
      <Space orientation="vertical" size={0}>
        <span>{t(`plans.names.${user.paidPlanId}`, { defaultValue: user.paidPlanId })}</span>
        {state && <Typography.Text type="secondary">{state}</Typography.Text>}
      </Space>
    );
  };

  const columns: TableProps<AdminUser>['columns'] = [
    {
      key: 'email',
      title: t('admin.users.email'),
      sorter: true,
      render: (_, user) => (
        <Space orientation="vertical" size={0}>
          <span className="admin-user-email">{user.email}</span>
          <Typography.Text type="secondary">
            {user.firstName} {user.lastName}
          </Typography.Text>
        </Space>
      ),
    },
    { key: 'plan', title: t('admin.users.plan'), sorter: true, render: (_, user) => plan(user) },
    {
      key: 'credit',
      title: t('admin.users.credit'),
      render: (_, user) =>
        t('admin.users.creditValue', {
          used: user.creditUsed.toLocaleString(i18n.language),
          limit: user.creditLimit.toLocaleString(i18n.language),
        }),
    },
    {
      key: 'role',
      title: t('admin.users.role'),
      render: (_, user) => (
        <Space size={4}>
          <Tag color={user.role === 'admin' ? 'gold' : undefined}>
            {t(`admin.users.roles.${user.role}`)}
          </Tag>
          {user.disabled && <Tag color="red">{t('admin.users.disabled')}</Tag>}
        </Space>
      ),
    },
    {
      key: 'created',
      title: t('admin.users.created'),
      sorter: true,
      render: (_, u) => date(u.created),
    },
    {
      key: 'lastSignIn',
      title: t('admin.users.lastSignIn'),
      sorter: true,
      render: (_, user) => date(user.lastSignIn),
    },
    {
      key: 'actions',
      title: t('admin.scans.actions'),
      render: (_, user) => (
        <Space wrap size={4}>
          <Button
            size="small"
            disabled={user.adminByConfig}
            title={user.adminByConfig ? t('admin.users.byConfig') : undefined}
            onClick={() =>
              setRole.mutate(
                { id: user.id, admin: user.role !== 'admin' },
                { onSuccess: () => toastSuccess(t('admin.users.roleChanged')), onError: failed },
              )
            }
          >
            {user.role === 'admin' ? t('admin.users.revokeAdmin') : t('admin.users.grantAdmin')}
          </Button>
          {user.disabled ? (
            <Button
              size="small"
              onClick={() =>
                setDisabled.mutate(
                  { id: user.id, disabled: false },
                  { onSuccess: () => toastSuccess(t('admin.users.enabledDone')), onError: failed },
                )
              }
            >
              {t('admin.users.enable')}
            </Button>
          ) : (
            <Button size="small" danger onClick={() => confirmDisable(user)}>
              {t('admin.users.disable')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <div className="admin-users">
      <Input.Search
        allowClear
        className="admin-filters"
        placeholder={t('admin.users.search')}
        aria-label={t('admin.users.search')}
        onSearch={(search) => setFilter((current) => ({ ...current, page: 1, search }))}
      />
      {users.isError && (
        <Typography.Text type="danger">
          {t('admin.loadFailed', { status: responseStatus(users.error) })}
        </Typography.Text>
      )}
      <Table<AdminUser>
        rowKey="id"
        size="small"
        scroll={{ x: true }}
        loading={users.isLoading}
        columns={columns}
        dataSource={users.data?.rows ?? []}
        pagination={{
          current: filter.page,
          pageSize: filter.pageSize,
          total: users.data?.total ?? 0,
          showTotal: (total) => t('admin.total', { count: total }),
        }}
        onChange={(pagination, _filters, sorter) => {
          const one = Array.isArray(sorter) ? sorter[0] : sorter;
          setFilter((current) => ({
            ...current,
            page: pagination.current ?? 1,
            pageSize: pagination.pageSize ?? current.pageSize,
            sortBy: one?.order ? String(one.columnKey) : 'created',
            sortOrder: one?.order === 'ascend' ? 'asc' : 'desc',
          }));
        }}
      />
    </div>
  );
}
