import { App, Button, DatePicker, Form, Input, InputNumber, Select, Space, Table, Tag } from 'antd';
import type { TableProps } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { VoucherListItem } from '@linkaudit/core';
import { errorMessages, translateMessage } from '../../../lib/errors';
import { toastError, toastSuccess } from '../../../lib/notify';
import { useCreateVoucher, useExpireVoucher, useVouchers } from '../api/admin-api';

interface VoucherForm {
  code: string;
  type: 0 | 1 | 2;
  value: number;
  expiresAt?: Dayjs | null;
  maxUses?: number | null;
}

/** Vouchers (SPEC §4 types 0 trial days, 1 fixed cents, 2 percent): create, list, expire. */
export function AdminVouchers() {
  const { t, i18n } = useTranslation();
  const { modal } = App.useApp();
  const [form] = Form.useForm<VoucherForm>();
  const vouchers = useVouchers();
  const create = useCreateVoucher();
  const expire = useExpireVoucher();
  const failed = (error: unknown) =>
    toastError(
      [
        t('admin.scans.actionFailed'),
        ...errorMessages(error).map((text) => translateMessage(text, t)),
      ].join(' '),
    );
  const expired = (voucher: VoucherListItem) =>
    voucher.expiresAt !== null && new Date(voucher.expiresAt) <= new Date();

  const submit = (values: VoucherForm) =>
    create.mutate(
      {
        code: values.code,
        type: values.type,
        value: values.value,
        expiresAt: values.expiresAt ? values.expiresAt.toDate().toISOString() : null,
        maxUses: values.maxUses ?? null,
      },
      {
        onSuccess: () => {
          toastSuccess(t('admin.vouchers.created'));
          form.resetFields();
        },
        onError: failed,
      },
    );

  const columns: TableProps<VoucherListItem>['columns'] = [
    { key: 'code', title: t('admin.vouchers.code'), dataIndex: 'code' },
    {
      key: 'type',
      title: t('admin.vouchers.type'),
      render: (_, voucher) => t(`admin.vouchers.types.t${voucher.type}`),
    },
    { key: 'value', title: t('admin.vouchers.value'), dataIndex: 'value' },
    {
      key: 'uses',
      title: t('admin.vouchers.uses'),
      render: (_, voucher) => `${voucher.uses} / ${voucher.maxUses ?? '∞'}`,
    },
    {
      key: 'expiresAt',
      title: t('admin.vouchers.expiresAt'),
      render: (_, voucher) => (
        <Space size={4}>
          {voucher.expiresAt
            ? new Date(voucher.expiresAt).toLocaleString(i18n.language)
            : t('admin.vouchers.never')}
          {expired(voucher) && <Tag>{t('admin.vouchers.expired')}</Tag>}
        </Space>
      ),
    },
    {
      key: 'actions',
      title: t('admin.scans.actions'),
      render: (_, voucher) => (
        <Button
          size="small"
          danger
          disabled={expired(voucher)}
          onClick={() =>
            void modal.confirm({
              title: t('admin.vouchers.expireTitle', { code: voucher.code }),
              content: t('admin.vouchers.expireText'),
              okText: t('admin.vouchers.expire'),
              okButtonProps: { danger: true },
              cancelText: t('scan.answers.close'),
              onOk: () =>
                expire.mutateAsync(voucher.code).then(
                  () => toastSuccess(t('admin.vouchers.expiredDone')),
                  (error: unknown) => failed(error),
                ),
            })
          }
        >
          {t('admin.vouchers.expire')}
        </Button>
      ),
    },
  ];

  return (
    <div className="admin-vouchers">
      <Form<VoucherForm>
        form={form}
        layout="inline"
        className="admin-filters"
        initialValues={{ type: 2, value: 10 }}
        onFinish={submit}
      >
        <Form.Item
          name="code"
          label={t('admin.vouchers.code')}
          rules={[{ required: true, message: t('messages.required') }]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="type" label={t('admin.vouchers.type')}>
          <Select
            className="admin-voucher-type"
            options={[0, 1, 2].map((type) => ({
              value: type,
              label: t(`admin.vouchers.types.t${type}`),
            }))}
          />
        </Form.Item>
        <Form.Item
          name="value"
          label={t('admin.vouchers.value')}
          rules={[{ required: true, message: t('messages.required') }]}
        >
          <InputNumber min={1} />
        </Form.Item>
        <Form.Item name="maxUses" label={t('admin.vouchers.maxUses')}>
          <InputNumber min={1} />
        </Form.Item>
        <Form.Item name="expiresAt" label={t('admin.vouchers.expiresAt')}>
          <DatePicker showTime />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={create.isPending}>
            {t('admin.vouchers.create')}
          </Button>
        </Form.Item>
      </Form>
      <Table<VoucherListItem>
        rowKey="code"
        size="small"
        loading={vouchers.isLoading}
        columns={columns}
        dataSource={vouchers.data ?? []}
        pagination={{ pageSize: 20 }}
      />
    </div>
  );
}
