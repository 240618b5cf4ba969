import { LoginOutlined } from '@ant-design/icons';
import { Button, Card, List, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLoginMessage, onlyLoginMessage, type ManageInfo } from '@linkaudit/core';
import { translateMessage } from '../../../lib/errors';
import { toastError } from '../../../lib/notify';
import { useRemoveLogin } from '../api/remove-login';
import { rememberExternalSignIn } from './external-sign-in';

type Login = ManageInfo['logins'][number];

/**
 * SPEC §5's refusals, checked before asking the server (which refuses the same way): the only
 * login of an account without a password, and the login this session came through.
 */
export function removalRefusal(info: ManageInfo, login: Login): string | undefined {
  if (info.logins.length === 1 && !info.hasLocalLoginProvider) {
    return onlyLoginMessage(login.displayName);
  }
  if (info.currentLoginProvider === login.loginProvider) {
    return currentLoginMessage(login.displayName);
  }
  return undefined;
}

/** External logins of the account: remove one, or add another provider. */
export function ExternalLoginsCard({ info }: { info: ManageInfo }) {
  const { t } = useTranslation();
  const remove = useRemoveLogin();
  const linked = new Set(info.logins.map((login) => login.loginProvider));
  const addable = info.externalLoginProviders.filter((provider) => !linked.has(provider.name));

  const onRemove = (login: Login) => {
    const refusal = removalRefusal(info, login);
    if (refusal) toastError(translateMessage(refusal, t));
    else remove.mutate(login);
  };

  return (
    <Card title={t('account.manage.externalLogins')}>
      <List
        dataSource={info.logins}
        locale={{ emptyText: t('account.manage.noExternalLogins') }}
        renderItem={(login) => (
          <List.Item
            actions={[
              <Button
                key="remove"
                danger
                size="small"
                onClick={() => onRemove(login)}
                loading={remove.isPending && remove.variables.providerKey === login.providerKey}
              >
                {t('account.manage.remove')}
              </Button>,
            ]}
          >
            <Typography.Text strong>{login.displayName}</Typography.Text>
          </List.Item>
        )}
      />
      {addable.length > 0 && (
        <Space wrap className="card-actions">
          {addable.map((provider) => (
            <Button
              key={provider.name}
              icon={<LoginOutlined />}
              href={provider.url}
              onClick={() =>
                rememberExternalSignIn({ state: provider.state, provider: provider.displayName })
              }
            >
              {t('account.manage.addLogin', { provider: provider.displayName })}
            </Button>
          ))}
        </Space>
      )}
    </Card>
  );
}
