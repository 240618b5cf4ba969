import { Button, Card, Form, Input } from 'antd';
import { busy } from '../../../lib/busy';
import { useTranslation } from 'react-i18next';
import { useSchemaRules, useSubmitOnce } from '../../../lib/form';
import {
  changePasswordFormSchema,
  useChangePassword,
  type ChangePasswordForm,
} from '../api/change-password';

/** Change the password, or set a first one on an account that signs in through a provider. */
export function ChangePasswordCard({ hasLocalLogin }: { hasLocalLogin: boolean }) {
  const { t } = useTranslation();
  const rules = useSchemaRules(changePasswordFormSchema(hasLocalLogin));
  const [form] = Form.useForm<ChangePasswordForm>();
  const change = useChangePassword({ onSuccess: () => form.resetFields() });
  const submit = useSubmitOnce(change);

  return (
    <Card
      title={hasLocalLogin ? t('account.manage.changePassword') : t('account.manage.setPassword')}
    >
      <Form<ChangePasswordForm>
        form={form}
        layout="vertical"
        name="change-password"
        requiredMark={false}
        onFinish={submit}
        className="card-form"
      >
        {hasLocalLogin && (
          <Form.Item
            name="oldPassword"
            label={t('account.fields.oldPassword')}
            rules={rules('oldPassword')}
          >
            <Input.Password autoComplete="current-password" />
          </Form.Item>
        )}
        <Form.Item
          name="newPassword"
          label={t('account.fields.newPassword')}
          rules={rules('newPassword')}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label={t('account.fields.confirmPassword')}
          dependencies={['newPassword']}
          rules={rules('confirmPassword')}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy(change.isPending)}>
          {hasLocalLogin ? t('account.manage.changePassword') : t('account.manage.setPassword')}
        </Button>
      </Form>
    </Card>
  );
}
