import { LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { useSignOut } from '../../features/auth/api/sign-out';
import { useUser } from '../../lib/api/get-user-info';
import { busy } from '../../lib/busy';

/** Signed in: the account (to /manage) and Sign out; a visitor: Sign in and Join. */
export function AccountActions({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { isSignedIn, user } = useUser();
  // A full load of the home page: no screen of the signed-in user is left to react to the change
  // (a protected one would send the visitor to sign in again).
  const signOut = useSignOut({ onSettled: () => window.location.assign(paths.home.path) });

  if (isSignedIn) {
    return (
      <>
        <Link to={paths.manage.path} onClick={onNavigate} className="nav-link">
          <UserOutlined /> <span className="nav-user">{user?.firstName ?? t('nav.manage')}</span>
        </Link>
        <Button
          type="text"
          className="nav-button"
          icon={<LogoutOutlined />}
          loading={busy(signOut.isPending)}
          onClick={() => {
            onNavigate?.();
            signOut.mutate();
          }}
        >
          {t('nav.signOut')}
        </Button>
      </>
    );
  }
  return (
    <>
      <Link to={paths.signIn.path} onClick={onNavigate} className="nav-link">
        {t('nav.signIn')}
      </Link>
      <Link to={paths.join.path} onClick={onNavigate}>
        <Button type="primary">{t('nav.join')}</Button>
      </Link>
    </>
  );
}
