import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { useEffect } from 'react';
import { RouterProvider } from 'react-router';
import { limits, type AccountLanguage } from '@linkaudit/core';
import { LoginDialog } from '../features/auth/components/LoginDialog';
import { LoginDialogContext, type LoginDialogProps } from '../lib/login-dialog';
import { setMessageApi } from '../lib/notify';
import { queryClient } from '../lib/query';
import { router } from './router';
import { theme } from './theme';

/** Fills the login dialog slot of the screens that ask a visitor to sign in (lib/login-dialog.ts). */
const renderLoginDialog = (props: LoginDialogProps) => <LoginDialog {...props} />;

/** Hands antd's themed message API to the global error handler (lib/query.ts). */
function NotifierBridge() {
  const { message } = AntApp.useApp();
  useEffect(() => setMessageApi(message), [message]);
  return null;
}

export function App({ language }: { language: AccountLanguage }) {
  return (
    // No space put between two Chinese characters of a button ("取 消", issue 37): Chinese UI
    // text is set without it, and the space also changes the button's accessible name.
    <ConfigProvider
      locale={language === 'zh-CN' ? zhCN : enUS}
      theme={theme}
      button={{ autoInsertSpace: false }}
    >
      <AntApp message={{ top: 0, duration: limits.toastDurationMs / 1000, maxCount: 3 }}>
        <NotifierBridge />
        <QueryClientProvider client={queryClient}>
          <LoginDialogContext value={renderLoginDialog}>
            <RouterProvider router={router} />
          </LoginDialogContext>
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
