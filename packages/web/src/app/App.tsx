import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { RouterProvider } from 'react-router';
import type { Language } from '../lib/i18n';
import { queryClient } from '../lib/query';
import { router } from './router';
import { theme } from './theme';

export function App({ language }: { language: Language }) {
  return (
    <ConfigProvider locale={language === 'zh-CN' ? zhCN : enUS} theme={theme}>
      <AntApp message={{ top: 0, duration: 4 }}>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
