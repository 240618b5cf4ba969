import { Col, Form, Input, Row } from 'antd';
import type { FormRule } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The registration fields of SPEC §3 (first and last name, e-mail, password and its
 * confirmation) inside the caller's antd Form, checked by the caller's schema rules (core's
 * registerRequestSchema): one set of fields for /join and the join-and-pay dialog.
 */
export function RegistrationFields({
  rules,
  passwordsSideBySide = false,
}: {
  rules: (field: string) => FormRule[];
  /** The dialog's narrow layout puts the two password fields on one row. */
  passwordsSideBySide?: boolean;
}) {
  const { t } = useTranslation();
  const password = (
    <Form.Item name="password" label={t('account.fields.password')} rules={rules('password')}>
      <Input.Password autoComplete="new-password" />
    </Form.Item>
  );
  const confirmPassword = (
    <Form.Item
      name="confirmPassword"
      label={t('account.fields.confirmPassword')}
      dependencies={['password']}
      rules={rules('confirmPassword')}
    >
      <Input.Password autoComplete="new-password" />
    </Form.Item>
  );
  return (
    <>
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
          <Form.Item name="lastName" label={t('account.fields.lastName')} rules={rules('lastName')}>
            <Input autoComplete="family-name" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="username" label={t('account.fields.email')} rules={rules('username')}>
        <Input type="email" autoComplete="email" />
      </Form.Item>
      {passwordsSideBySide ? (
        <Row gutter={12}>
          <Col xs={24} sm={12}>
            {password}
          </Col>
          <Col xs={24} sm={12}>
            {confirmPassword}
          </Col>
        </Row>
      ) : (
        <>
          {password}
          {confirmPassword}
        </>
      )}
    </>
  );
}
