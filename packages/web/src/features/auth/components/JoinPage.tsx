import { MailOutlined } from '@ant-design/icons';
import { busy } from '../../../lib/busy';
import { Button, Col, Form, Input, Result, Row, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageCard } from '../../../components/ui/PageCard';
import { paths } from '../../../config/paths';
import { useSchemaRules } from '../../../lib/form';
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
        onFinish={(values) => !register.isPending && register.mutate(values)}
      >
        <Row gutter={12}>
          <Col xs={24} sm={12}>
            <Form.Item
              name="firstName"
              label={t('account.fields.firstName')}
              rules={rules('firstName')}
            >
              <Input autoComplete="given-name" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="lastName"
              label={t('account.fields.lastName')}
              rules={rules('lastName')}
            >
              <Input autoComplete="family-name" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="username" label={t('account.fields.email')} rules={rules('username')}>
          <Input type="email" autoComplete="email" />
        </Form.Item>
        <Form.Item name="password" label={t('account.fields.password')} rules={rules('password')}>
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
