import { Button, Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageCard } from '../../../components/ui/PageCard';
import { paths } from '../../../config/paths';
import { errorMessages, translateMessage } from '../../../lib/errors';
import { useSessionToken } from '../../../lib/session';
import { useConfirmEmail } from '../api/confirm-email';

/** /confirmemail?code&userId: the link of the confirmation mail. */
export default function ConfirmEmailPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const signedIn = useSessionToken() !== null;
  const code = search.get('code') ?? '';
  const userId = search.get('userId') ?? '';
  const confirm = useConfirmEmail(code, userId);
  const next = signedIn ? (
    <Link to={paths.home.path}>
      <Button type="primary">{t('account.confirmEmail.continue')}</Button>
    </Link>
  ) : (
    <Link to={paths.signIn.path}>
      <Button type="primary">{t('account.signIn.submit')}</Button>
    </Link>
  );

  let content;
  if (confirm.isSuccess) {
    content = (
      <Result
        status="success"
        title={t('account.confirmEmail.done')}
        subTitle={t('account.confirmEmail.doneDetail', { email: confirm.data.userName })}
        extra={next}
      />
    );
  } else if (confirm.isError || code === '' || userId === '') {
    const reason = confirm.isError
      ? errorMessages(confirm.error)
          .map((text) => translateMessage(text, t))
          .join(' ')
      : t('messages.invalidConfirmationLink');
    content = <Result status="error" title={t('account.confirmEmail.failed')} subTitle={reason} />;
  } else {
    content = (
      <div className="page-loading" aria-label={t('account.confirmEmail.checking')}>
        <Spin />
      </div>
    );
  }
  return <PageCard title={t('account.confirmEmail.title')}>{content}</PageCard>;
}
