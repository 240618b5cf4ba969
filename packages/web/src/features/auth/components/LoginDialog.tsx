import { Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { paths } from '../../../config/paths';
import type { LoginDialogProps } from '../../../lib/login-dialog';
import { ExternalLoginButtons } from './ExternalLoginButtons';
import { SignInForm } from './SignInForm';

/** The login dialog (SPEC §2 Dialogs): what a visitor gets when an action needs an account. */
export function LoginDialog({ open, onClose, onSignedIn }: LoginDialogProps) {
  const { t } = useTranslation();
  // Signing in at a provider leaves the page: the person comes back to where the dialog opened.
  const location = useLocation();
  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      title={t('account.loginDialog.title')}
      destroyOnHidden
      width={440}
    >
      <Typography.Paragraph type="secondary">{t('account.loginDialog.why')}</Typography.Paragraph>
      <SignInForm idPrefix="login-dialog" onSignedIn={onSignedIn} />
      <ExternalLoginButtons returnUrl={location.pathname + location.search} />
      <Typography.Paragraph className="page-card-footer">
        {t('account.signIn.noAccount')}{' '}
        <Link to={paths.join.path} onClick={onClose}>
          {t('account.signIn.join')}
        </Link>
      </Typography.Paragraph>
    </Modal>
  );
}
