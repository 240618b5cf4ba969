import { LoginOutlined } from '@ant-design/icons';
import { Button, Divider, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useExternalLogins } from '../api/get-external-logins';
import { rememberExternalSignIn } from './external-sign-in';

/**
 * One button per configured provider (none configured: nothing shown). Once signed in there, the
 * person goes on to `returnUrl` (a same-site path), else home.
 */
export function ExternalLoginButtons({ returnUrl }: { returnUrl?: string }) {
  const { t } = useTranslation();
  const providers = useExternalLogins();
  if (!providers.data?.length) return null;
  return (
    <>
      <Divider plain>{t('account.signIn.orWith')}</Divider>
      <Space orientation="vertical" className="full-width">
        {providers.data.map((provider) => (
          <Button
            key={provider.name}
            block
            icon={<LoginOutlined />}
            href={provider.url}
            onClick={() =>
              rememberExternalSignIn({
                state: provider.state,
                provider: provider.displayName,
                returnUrl,
              })
            }
          >
            {t('account.signIn.withProvider', { provider: provider.displayName })}
          </Button>
        ))}
      </Space>
    </>
  );
}
