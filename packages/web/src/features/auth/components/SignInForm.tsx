import { Button, Checkbox, Form, Input } from 'antd';
import { busy } from '../../../lib/busy';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { useSchemaRules, useSubmitOnce } from '../../../lib/form';
import { signInFormSchema, useSignIn, type SignInForm as SignInValues } from '../api/sign-in';

/** E-mail, password and remember me; used by the sign-in screen and the login dialog. */
export function SignInForm({ onSignedIn, idPrefix }: { onSignedIn: () => void; idPrefix: string }) {
  const { t } = useTranslation();
  const rules = useSchemaRules(signInFormSchema);
  const signIn = useSignIn({ onSuccess: onSignedIn });
  const submit = useSubmitOnce(signIn);

  return (
    <Form<SignInValues>
      layout="vertical"
      name={idPrefix}
      requiredMark={false}
      initialValues={{ username: '', password: '', rememberMe: false }}
      onFinish={submit}
    >
      <Form.Item name="username" label={t('account.fields.email')} rules={rules('username')}>
        <Input type="email" autoComplete="username" />
      </Form.Item>
      <Form.Item name="password" label={t('account.fields.password')} rules={rules('password')}>
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <div className="form-row-between">
        <Form.Item name="rememberMe" valuePropName="checked" noStyle>
          <Checkbox>{t('account.signIn.rememberMe')}</Checkbox>
        </Form.Item>
        <Link to={paths.forgotPassword.path}>{t('account.signIn.forgotPassword')}</Link>
      </div>
      <Button type="primary" htmlType="submit" block size="large" loading={busy(signIn.isPending)}>
        {t('account.signIn.submit')}
      </Button>
    </Form>
  );
}
