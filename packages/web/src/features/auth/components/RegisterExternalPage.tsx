import { Button, Form, Input, Result, Spin } from 'antd';
import { busy } from '../../../lib/busy';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PageCard } from '../../../components/ui/PageCard';
import { paths } from '../../../config/paths';
import { useSchemaRules } from '../../../lib/form';
import { setSessionToken } from '../../../lib/session';
import { getUserInfo } from '../api/get-user-info';
import {
  registerExternalFormSchema,
  useRegisterExternal,
  type RegisterExternalForm,
} from '../api/register-external';
import { forgetExternalRedirect, readExternalRedirect } from './external-sign-in';

type Stage =
  | { kind: 'checking' }
  | { kind: 'failed' }
  | { kind: 'form'; token: string; initial: RegisterExternalForm };

/**
 * /registerExternal: where a provider's sign-in comes back (`#access_token=…`). A known identity
 * is signed in at once; a new one completes its account here with the provider's name and address.
 */
export default function RegisterExternalPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [redirect] = useState(readExternalRedirect);
  const [stage, setStage] = useState<Stage>(() =>
    redirect.kind === 'token' ? { kind: 'checking' } : { kind: 'failed' },
  );
  const started = useRef(false);

  useEffect(() => {
    // The token leaves the address bar at once; the check runs once even in StrictMode.
    forgetExternalRedirect();
    if (started.current || redirect.kind !== 'token') return;
    started.current = true;
    getUserInfo(redirect.token).then(
      (info) => {
        if (info.hasRegistered) {
          setSessionToken(redirect.token);
          void navigate(paths.home.path, { replace: true });
        } else {
          setStage({
            kind: 'form',
            token: redirect.token,
            initial: { userName: info.email, firstName: info.firstName, lastName: info.lastName },
          });
        }
      },
      () => setStage({ kind: 'failed' }),
    );
  }, [navigate, redirect]);

  if (stage.kind === 'checking') {
    return (
      <PageCard title={t('account.external.title')}>
        <div className="page-loading">
          <Spin />
        </div>
      </PageCard>
    );
  }
  if (stage.kind === 'failed') {
    return (
      <PageCard title={t('account.external.title')}>
        <Result
          status="warning"
          title={t('account.external.failed')}
          subTitle={t('messages.invalidExternalLogin')}
          extra={<Link to={paths.signIn.path}>{t('account.forgotPassword.backToSignIn')}</Link>}
        />
      </PageCard>
    );
  }
  return (
    <RegisterExternalForm
      token={stage.token}
      initial={stage.initial}
      onDone={() => void navigate(paths.home.path, { replace: true })}
    />
  );
}

function RegisterExternalForm(props: {
  token: string;
  initial: RegisterExternalForm;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const rules = useSchemaRules(registerExternalFormSchema);
  const register = useRegisterExternal(props.token, props.onDone);
  return (
    <PageCard title={t('account.external.title')} subtitle={t('account.external.subtitle')}>
      <Form<RegisterExternalForm>
        layout="vertical"
        name="register-external"
        requiredMark={false}
        initialValues={props.initial}
        onFinish={(values) => !register.isPending && register.mutate(values)}
      >
        <Form.Item name="userName" label={t('account.fields.email')} rules={rules('userName')}>
          <Input type="email" autoComplete="email" />
        </Form.Item>
        <Form.Item
          name="firstName"
          label={t('account.fields.firstName')}
          rules={rules('firstName')}
        >
          <Input autoComplete="given-name" />
        </Form.Item>
        <Form.Item name="lastName" label={t('account.fields.lastName')} rules={rules('lastName')}>
          <Input autoComplete="family-name" />
        </Form.Item>
        <Button
          type="primary"
          htmlType="submit"
          block
          size="large"
          loading={busy(register.isPending)}
        >
          {t('account.external.submit')}
        </Button>
      </Form>
    </PageCard>
  );
}
