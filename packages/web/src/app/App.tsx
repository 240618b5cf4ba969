import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { useEffect } from 'react';
import { RouterProvider } from 'react-router';
import { limits } from '@linkaudit/core';
import type { Language } from '../lib/i18n';
import { setMessageApi } from '../lib/notify';
import { queryClient } from '../lib/query';
import { router } from './router';
import { theme } from './theme';

/** Hands antd's themed message API to the global error handler (lib/query.ts). */
function NotifierBridge() {
  const { message } = AntApp.useApp();
  useEffect(() => setMessageApi(message), [message]);
  return null;
}

export function App({ language }: { language: Language }) {
  return (
    <ConfigProvider locale={language === 'zh-CN' ? zhCN : enUS} theme={theme}>
      <AntApp message={{ top: 0, duration: limits.toastDurationMs / 1000, maxCount: 3 }}>
        <NotifierBridge />
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
