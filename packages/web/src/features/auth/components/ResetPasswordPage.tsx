import { Alert, Button, Form, Input } from 'antd';
import { busy } from '../../../lib/busy';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PageCard } from '../../../components/ui/PageCard';
import { paths } from '../../../config/paths';
import { useSchemaRules, useSubmitOnce } from '../../../lib/form';
import {
  resetPasswordFormSchema,
  useResetPassword,
  type ResetPasswordForm,
} from '../api/reset-password';

/** /resetpassword?email&code: the link of the reset mail; a new password, then sign in. */
export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const code = search.get('code') ?? '';
  const rules = useSchemaRules(resetPasswordFormSchema);
  const reset = useResetPassword({
    onSuccess: () => void navigate(paths.signIn.path, { replace: true }),
  });
  const submit = useSubmitOnce(reset);

  return (
    <PageCard
      title={t('account.resetPassword.title')}
      subtitle={t('account.resetPassword.subtitle')}
    >
      {code === '' && (
        <Alert
          type="warning"
          showIcon
          className="form-alert"
          title={t('account.resetPassword.noCode')}
          description={
            <Link to={paths.forgotPassword.path}>{t('account.resetPassword.askAgain')}</Link>
          }
        />
      )}
      <Form<ResetPasswordForm>
        layout="vertical"
        name="reset"
        requiredMark={false}
        initialValues={{ email: search.get('email') ?? '', code }}
        onFinish={(values) => submit({ ...values, code })}
      >
        <Form.Item name="code" hidden>
          <Input />
        </Form.Item>
        <Form.Item name="email" label={t('account.fields.email')} rules={rules('email')}>
          <Input type="email" autoComplete="username" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('account.fields.newPassword')}
          rules={rules('password')}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label={t('account.fields.confirmPassword')}
          dependencies={['password']}
          rules={rules('confirmPassword')}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block size="large" loading={busy(reset.isPending)}>
          {t('account.resetPassword.submit')}
        </Button>
      </Form>
    </PageCard>
  );
}
