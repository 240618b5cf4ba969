import { MailOutlined } from '@ant-design/icons';
import { busy } from '../../../lib/busy';
import { Button, Form, Result, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { RegistrationFields } from '../../../components/account/RegistrationFields';
import { PageCard } from '../../../components/ui/PageCard';
import { paths } from '../../../config/paths';
import { useSchemaRules, useSubmitOnce } from '../../../lib/form';
import { registerFormSchema, useRegister, type RegisterForm } from '../api/register';
import { ExternalLoginButtons } from './ExternalLoginButtons';

/** /join: create an account; the confirmation mail carries the link to /confirmemail. */
export default function JoinPage() {
  const { t } = useTranslation();
  const rules = useSchemaRules(registerFormSchema);
  const [joinedAs, setJoinedAs] = useState<string>();
  const [form] = Form.useForm<RegisterForm>();
  const register = useRegister({
    onSuccess: () => setJoinedAs(form.getFieldValue('username') as string),
  });
  const submit = useSubmitOnce(register);

  if (joinedAs) {
    return (
      <PageCard title={t('account.join.title')}>
        <Result
          icon={<MailOutlined />}
          title={t('account.join.checkMail')}
          subTitle={t('account.join.checkMailDetail', { email: joinedAs })}
          extra={
            <Link to={paths.signIn.path}>
              <Button type="primary">{t('account.signIn.submit')}</Button>
            </Link>
          }
        />
      </PageCard>
    );
  }

  return (
    <PageCard title={t('account.join.title')} subtitle={t('account.join.subtitle')}>
      <Form<RegisterForm>
        form={form}
        layout="vertical"
        name="join"
        requiredMark={false}
        onFinish={submit}
      >
        <RegistrationFields rules={rules} />
        <Button
          type="primary"
          htmlType="submit"
          block
          size="large"
          loading={busy(register.isPending)}
        >
          {t('account.join.submit')}
        </Button>
      </Form>
      <ExternalLoginButtons />
      <Typography.Paragraph className="page-card-footer">
        {t('account.join.haveAccount')}{' '}
        <Link to={paths.signIn.path}>{t('account.signIn.submit')}</Link>
      </Typography.Paragraph>
    </PageCard>
  );
}
