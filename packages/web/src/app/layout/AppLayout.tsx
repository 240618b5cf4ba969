import { Layout, Menu } from 'antd';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { menuEntries } from '../../config/paths';
import { AppFooter } from './AppFooter';
import { LanguageSelector } from './LanguageSelector';
import { PageLoading } from './PageLoading';

/** Navigation on top (menu by configured order, language selector), the page, the footer. */
export function AppLayout() {
  const { t } = useTranslation();
  const location = useLocation();
  const items = menuEntries().map((entry) => ({
    key: entry.path,
    label: <Link to={entry.path}>{t(entry.labelKey)}</Link>,
  }));

  return (
    <Layout className="app-layout">
      <Layout.Header className="app-header">
        <Link to="/" className="app-logo" aria-label="LinkAudit">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>LinkAudit</span>
        </Link>
        <Menu
          mode="horizontal"
          theme="dark"
          selectedKeys={[location.pathname]}
          items={items}
          className="app-menu"
          aria-label={t('nav.menu')}
        />
        <LanguageSelector />
      </Layout.Header>
      <Layout.Content className="app-content">
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </Layout.Content>
      <AppFooter />
    </Layout>
  );
}
