import { MenuOutlined } from '@ant-design/icons';
import { Button, Drawer, Grid, Layout, Menu } from 'antd';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { menuEntries, paths } from '../../config/paths';
import { useSignOut } from '../../features/auth/api/sign-out';
import { PaymentFailedGate } from '../../features/billing/components/PaymentFailedGate';
import { useUser } from '../../lib/api/get-user-info';
import { AccountActions } from './AccountActions';
import { AppFooter } from './AppFooter';
import { LanguageSelector } from './LanguageSelector';
import { PageLoading } from './PageLoading';
import { useRouteTitle } from './use-route-title';

/**
 * Navigation on top (menu by configured order, account actions, language selector), the page,
 * the footer. Below the `lg` breakpoint the menu and account actions move into a drawer.
 */
export function AppLayout() {
  const { t } = useTranslation();
  const location = useLocation();
  useRouteTitle();
  const screens = Grid.useBreakpoint();
  const wide = screens.lg ?? true;
  const [drawerOpen, setDrawerOpen] = useState(false);
  const { user } = useUser();
  // The forced update-card dialog's way out (SPEC §6): the same full reload as the header's.
  const signOut = useSignOut({ onSettled: () => window.location.assign(paths.home.path) });
  const closeDrawer = () => setDrawerOpen(false);
  const items = menuEntries(user?.roles.includes('admin')).map((entry) => ({
    key: entry.path,
    label: (
      <Link to={entry.path} onClick={closeDrawer}>
        {t(entry.labelKey)}
      </Link>
    ),
  }));

  return (
    <Layout className="app-layout">
      <a href="#main" className="skip-link">
        {t('nav.skipToContent')}
      </a>
      <Layout.Header className="app-header">
        <Link to="/" className="app-logo" aria-label="LinkAudit">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>LinkAudit</span>
        </Link>
        {wide ? (
          <>
            <nav className="app-menu" aria-label={t('nav.menu')}>
              <Menu
                mode="horizontal"
                theme="dark"
                selectedKeys={[location.pathname]}
                items={items}
                disabledOverflow
              />
            </nav>
            <div className="app-header-actions">
              <AccountActions />
              <LanguageSelector />
            </div>
          </>
        ) : (
          <div className="app-header-actions">
            <LanguageSelector />
            <Button
              type="text"
              className="nav-button"
              icon={<MenuOutlined />}
              aria-label={t('nav.openMenu')}
              aria-expanded={drawerOpen}
              onClick={() => setDrawerOpen(true)}
            />
          </div>
        )}
      </Layout.Header>
      {!wide && (
        <Drawer
          open={drawerOpen}
          onClose={closeDrawer}
          placement="right"
          size={280}
          title="LinkAudit"
          className="app-drawer"
        >
          <nav aria-label={t('nav.menu')}>
            <Menu mode="vertical" selectedKeys={[location.pathname]} items={items} />
          </nav>
          <div className="drawer-actions">
            <AccountActions onNavigate={closeDrawer} />
          </div>
        </Drawer>
      )}
      <Layout.Content className="app-content" id="main" tabIndex={-1}>
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </Layout.Content>
      <PaymentFailedGate onSignOut={() => signOut.mutate()} signingOut={signOut.isPending} />
      <AppFooter />
    </Layout>
  );
}
