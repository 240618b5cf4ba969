import { Card, Descriptions, Space, Spin, Tag, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { AccessTokensCard } from '../../../components/power-bi/AccessTokensCard';
import { PageHeading } from '../../../components/ui/PageHeading';
import { useUser } from '../../../lib/api/get-user-info';
import { toastError } from '../../../lib/notify';
import { useAddExternalLogin } from '../api/add-external-login';
import { useManageInfo } from '../api/get-manage-info';
import { ChangePasswordCard } from './ChangePasswordCard';
import { externalFailureText, takeExternalRedirect } from './external-sign-in';
import { ExternalLoginsCard } from './ExternalLoginsCard';

/** /manage: the account, its password and its external logins. */
export default function ManagePage() {
  const { t } = useTranslation();
  const { user } = useUser();
  const manageInfo = useManageInfo();
  const addLogin = useAddExternalLogin();
  const handledRedirect = useRef(false);

  // Coming back from a provider after "Add": link that identity to this account.
  useEffect(() => {
    if (handledRedirect.current) return;
    handledRedirect.current = true;
    const redirect = takeExternalRedirect();
    if (redirect.kind === 'token') addLogin.mutate(redirect.token);
    else if (redirect.kind === 'error') toastError(externalFailureText(redirect, t));
  }, [addLogin, t]);

  return (
    <div className="narrow-page">
      <PageHeading title={t('account.manage.title')} />
      <Space orientation="vertical" size="large" className="full-width">
        <Card title={t('account.manage.profile')}>
          {user ? (
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t('account.fields.name')}>
                {user.firstName} {user.lastName}
              </Descriptions.Item>
              <Descriptions.Item label={t('account.fields.email')}>
                <Space wrap>
                  <Typography.Text>{user.email}</Typography.Text>
                  {user.emailConfirmed ? (
                    <Tag color="green">{t('account.manage.confirmed')}</Tag>
                  ) : (
                    <Tag color="orange">{t('account.manage.notConfirmed')}</Tag>
                  )}
                </Space>
              </Descriptions.Item>
              <Descriptions.Item label={t('account.manage.plan')}>
                {t(`plans.names.${user.paidPlanId}`)}
              </Descriptions.Item>
            </Descriptions>
          ) : (
            <Spin />
          )}
        </Card>
        {manageInfo.data ? (
          <>
            <ChangePasswordCard hasLocalLogin={manageInfo.data.hasLocalLoginProvider} />
            <ExternalLoginsCard info={manageInfo.data} />
          </>
        ) : (
          <Spin />
        )}
        <AccessTokensCard />
      </Space>
    </div>
  );
}
