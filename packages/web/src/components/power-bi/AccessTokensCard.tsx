import { KeyOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Form, Input, List, Popconfirm, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CreatedBiAccessToken } from '@linkaudit/core';
import { errorMessages } from '../../lib/errors';
import { toastError, toastSuccess } from '../../lib/notify';
import { useBiTokens, useCreateBiToken, useRevokeBiToken } from './bi-api';

/**
 * /manage: personal read-only access tokens for the Power BI / Excel feed. A new token's secret
 * is shown once, here; the list shows only its first characters.
 */
export function AccessTokensCard() {
  const { t, i18n } = useTranslation();
  const tokens = useBiTokens();
  const create = useCreateBiToken();
  const revoke = useRevokeBiToken();
  const [form] = Form.useForm<{ name: string }>();
  const [created, setCreated] = useState<CreatedBiAccessToken | null>(null);
  const date = (iso: string) => new Date(iso).toLocaleString(i18n.language);

  const onCreate = async ({ name }: { name: string }) => {
    try {
      setCreated(await create.mutateAsync({ name }));
      form.resetFields();
    } catch (error) {
      for (const text of errorMessages(error)) toastError(text);
    }
  };

  const onRevoke = async (id: string, name: string) => {
    try {
      await revoke.mutateAsync(id);
      if (created?.id === id) setCreated(null);
      toastSuccess(t('powerBi.tokens.revoked', { name }));
    } catch (error) {
      for (const text of errorMessages(error)) toastError(text);
    }
  };

  return (
    <Card title={t('powerBi.tokens.title')} className="bi-tokens">
      <Typography.Paragraph type="secondary">{t('powerBi.tokens.intro')}</Typography.Paragraph>
      {created && (
        <Alert
          type="success"
          showIcon
          closable={{ onClose: () => setCreated(null) }}
          className="bi-token-created"
          title={t('powerBi.tokens.createdTitle', { name: created.name })}
          description={
            <Space orientation="vertical" className="full-width">
              <Typography.Text
                code
                copyable={{ text: created.token }}
                aria-label={t('powerBi.tokens.secret')}
              >
                {created.token}
              </Typography.Text>
              <Typography.Text type="warning">{t('powerBi.tokens.showOnce')}</Typography.Text>
            </Space>
          }
        />
      )}
      <Form
        form={form}
        layout="inline"
        onFinish={(values) => void onCreate(values)}
        className="bi-token-form"
      >
        <Form.Item
          name="name"
          label={t('powerBi.tokens.name')}
          rules={[
            { required: true, whitespace: true, message: t('messages.required') },
            { max: 100 },
          ]}
        >
          <Input placeholder={t('powerBi.tokens.namePlaceholder')} maxLength={100} />
        </Form.Item>
        <Form.Item>
          <Button
            type="primary"
            htmlType="submit"
            icon={<KeyOutlined />}
            loading={create.isPending}
          >
            {t('powerBi.tokens.create')}
          </Button>
        </Form.Item>
      </Form>
      <List
        loading={tokens.isPending}
        dataSource={tokens.data ?? []}
        locale={{ emptyText: t('powerBi.tokens.none') }}
        renderItem={(token) => (
          <List.Item
            actions={[
              <Popconfirm
                key="revoke"
                title={t('powerBi.tokens.revokeConfirm', { name: token.name })}
                okText={t('powerBi.tokens.revoke')}
                cancelText={t('powerBi.tokens.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={() => void onRevoke(token.id, token.name)}
              >
                <Button
                  danger
                  size="small"
                  loading={revoke.isPending && revoke.variables === token.id}
                >
                  {t('powerBi.tokens.revoke')}
                </Button>
              </Popconfirm>,
            ]}
          >
            <List.Item.Meta
              title={token.name}
              description={
                <Space wrap size="middle">
                  <Typography.Text code>{token.prefix}…</Typography.Text>
                  <span>{t('powerBi.tokens.createdAt', { date: date(token.createdAt) })}</span>
                  <span>
                    {token.lastUsedAt
                      ? t('powerBi.tokens.lastUsed', { date: date(token.lastUsedAt) })
                      : t('powerBi.tokens.neverUsed')}
                  </span>
                </Space>
              }
            />
          </List.Item>
        )}
      />
    </Card>
  );
}
