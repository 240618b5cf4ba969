import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Result, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PageCard } from '../../../components/ui/PageCard';
import { paths, safeReturnUrl } from '../../../config/paths';
import { getUserInfo, userInfoQueryOptions } from '../../../lib/api/get-user-info';
import { busy } from '../../../lib/busy';
import { useSchemaRules, useSubmitOnce } from '../../../lib/form';
import { toastSuccess } from '../../../lib/notify';
import { setSessionToken } from '../../../lib/session';
import {
  registerExternalFormSchema,
  useRegisterExternal,
  type RegisterExternalForm,
} from '../api/register-external';
import {
  externalFailureText,
  forgetExternalRedirect,
  readExternalRedirect,
  type ExternalRedirect,
} from './external-sign-in';

type Stage =
  | { kind: 'checking' }
  | { kind: 'failed'; reason: string }
  | { kind: 'form'; token: string; initial: RegisterExternalForm };

/**
 * /registerExternal: where a provider's sign-in comes back (`#access_token=…`). A known identity
 * is signed in at once; a new one completes its account here with the provider's name and address.
 * Either way the person goes on to where the sign-in started (`returnUrl`), else home. A refusal
 * at the provider (or an answer this tab did not ask for) leaves them signed out with the reason.
 */
export default function RegisterExternalPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [redirect] = useState<ExternalRedirect>(readExternalRedirect);
  const [stage, setStage] = useState<Stage>(() => {
    if (redirect.kind === 'token') return { kind: 'checking' };
    if (redirect.kind === 'error')
      return { kind: 'failed', reason: externalFailureText(redirect, t) };
    return { kind: 'failed', reason: t('messages.invalidExternalLogin') };
  });
  const started = useRef(false);
  const returnUrl = safeReturnUrl(redirect.kind === 'token' ? (redirect.returnUrl ?? null) : null);

  useEffect(() => {
    // The token leaves the address bar at once; the check runs once even in StrictMode.
    forgetExternalRedirect();
    if (started.current || redirect.kind !== 'token') return;
    started.current = true;
    getUserInfo(redirect.token).then(
      (info) => {
        if (info.hasRegistered) {
          queryClient.setQueryData(userInfoQueryOptions(redirect.token).queryKey, info);
          setSessionToken(redirect.token);
          toastSuccess(t('account.signIn.success'));
          void navigate(returnUrl, { replace: true });
        } else {
          setStage({
            kind: 'form',
            token: redirect.token,
            initial: { userName: info.email, firstName: info.firstName, lastName: info.lastName },
          });
        }
      },
      () => setStage({ kind: 'failed', reason: t('messages.invalidExternalLogin') }),
    );
  }, [navigate, queryClient, redirect, returnUrl, t]);

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
          subTitle={stage.reason}
          extra={<Link to={paths.signIn.path}>{t('account.forgotPassword.backToSignIn')}</Link>}
        />
      </PageCard>
    );
  }
  return (
    <RegisterExternalForm
      token={stage.token}
      initial={stage.initial}
      onDone={() => void navigate(returnUrl, { replace: true })}
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
  const submit = useSubmitOnce(register);
  return (
    <PageCard title={t('account.external.title')} subtitle={t('account.external.subtitle')}>
      <Form<RegisterExternalForm>
        layout="vertical"
        name="register-external"
        requiredMark={false}
        initialValues={props.initial}
        onFinish={submit}
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
