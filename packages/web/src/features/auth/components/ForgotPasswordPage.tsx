import { MailOutlined } from '@ant-design/icons';
import { busy } from '../../../lib/busy';
import { Button, Form, Input, Result, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { PageCard } from '../../../components/ui/PageCard';
import { paths } from '../../../config/paths';
import { useSchemaRules } from '../../../lib/form';
import {
  forgotPasswordFormSchema,
  useForgotPassword,
  type ForgotPasswordForm,
} from '../api/forgot-password';

/** /forgotpassword and /forgotpassword/{email}: mail a reset link. */
export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const { email = '' } = useParams();
  const rules = useSchemaRules(forgotPasswordFormSchema);
  const forgot = useForgotPassword();
  const [sentTo, setSentTo] = useState<string>();

  if (sentTo) {
    return (
      <PageCard title={t('account.forgotPassword.title')}>
        <Result
          icon={<MailOutlined />}
          title={t('account.forgotPassword.sent')}
          subTitle={t('account.forgotPassword.sentDetail', { email: sentTo })}
          extra={<Link to={paths.signIn.path}>{t('account.forgotPassword.backToSignIn')}</Link>}
        />
      </PageCard>
    );
  }

  return (
    <PageCard
      title={t('account.forgotPassword.title')}
      subtitle={t('account.forgotPassword.subtitle')}
    >
      <Form<ForgotPasswordForm>
        layout="vertical"
        name="forgot"
        requiredMark={false}
        initialValues={{ email }}
        onFinish={(values) =>
          !forgot.isPending &&
          forgot.mutate(values, { onSuccess: () => setSentTo(values.email.trim()) })
        }
      >
        <Form.Item name="email" label={t('account.fields.email')} rules={rules('email')}>
          <Input type="email" autoComplete="email" />
        </Form.Item>
        <Button
          type="primary"
          htmlType="submit"
          block
          size="large"
          loading={busy(forgot.isPending)}
        >
          {t('account.forgotPassword.submit')}
        </Button>
      </Form>
      <Typography.Paragraph className="page-card-footer">
        <Link to={paths.signIn.path}>{t('account.forgotPassword.backToSignIn')}</Link>
      </Typography.Paragraph>
    </PageCard>
  );
}
