import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PageCard } from '../../../components/ui/PageCard';
import { paths, safeReturnUrl } from '../../../config/paths';
import { ExternalLoginButtons } from './ExternalLoginButtons';
import { SignInForm } from './SignInForm';

/** /signin: back to where the visitor was (`?returnUrl=`) once signed in. */
export default function SignInPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const returnUrl = safeReturnUrl(search.get('returnUrl'));

  return (
    <PageCard title={t('account.signIn.title')} subtitle={t('account.signIn.subtitle')}>
      <SignInForm
        idPrefix="signin"
        onSignedIn={() => void navigate(returnUrl, { replace: true })}
      />
      <ExternalLoginButtons returnUrl={returnUrl} />
      <Typography.Paragraph className="page-card-footer">
        {t('account.signIn.noAccount')} <Link to={paths.join.path}>{t('account.signIn.join')}</Link>
      </Typography.Paragraph>
    </PageCard>
  );
}
