import { Button, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ScanRequest } from '@linkaudit/core';

type Credentials = Pick<ScanRequest, 'windowsAuthenticationInfo' | 'formAuthenticationInfo'>;

/**
 * One secret of a scan's credentials (issue 36): the server never sends its value back, only
 * whether it is set. Shown as "set — replace / clear" or "not set — set"; replacing sends the new
 * value, clearing sends an empty one, leaving it alone keeps the stored one.
 */
function SecretValue({
  label,
  isSet,
  onReplace,
  onClear,
}: {
  label: string;
  isSet: boolean;
  onReplace: (value: string) => void;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  if (editing) {
    return (
      <Input.Password
        aria-label={label}
        autoFocus
        autoComplete="new-password"
        onChange={(event) => onReplace(event.target.value)}
      />
    );
  }
  return (
    <Space>
      <Typography.Text>
        {isSet ? t('scan.credentials.set') : t('scan.credentials.notSet')}
      </Typography.Text>
      <Button
        size="small"
        onClick={() => setEditing(true)}
        aria-label={`${label}: ${isSet ? t('scan.credentials.replace') : t('scan.credentials.setValue')}`}
      >
        {isSet ? t('scan.credentials.replace') : t('scan.credentials.setValue')}
      </Button>
      {isSet && (
        <Button
          size="small"
          danger
          onClick={onClear}
          aria-label={`${label}: ${t('scan.credentials.clear')}`}
        >
          {t('scan.credentials.clear')}
        </Button>
      )}
    </Space>
  );
}

/**
 * The credentials a scan carries (SPEC §3: a Windows entry, form entries). The web product does
 * not offer signing in to a site (SPEC §1), so this shows only for settings that came with
 * credentials through the API: who they are for, and whether each secret is set.
 */
export function CredentialsField({
  settings,
  onChange,
}: {
  settings: Credentials;
  onChange: (patch: Partial<Credentials>) => void;
}) {
  const { t } = useTranslation();
  const windows = settings.windowsAuthenticationInfo;
  const forms = settings.formAuthenticationInfo;
  if (!windows && forms.length === 0) return null;
  const setForm = (index: number, patch: Partial<(typeof forms)[number]>) =>
    onChange({
      formAuthenticationInfo: forms.map((entry, at) =>
        at === index ? { ...entry, ...patch } : entry,
      ),
    });
  return (
    <div className="scan-credentials">
      <Typography.Title level={5}>{t('scan.credentials.title')}</Typography.Title>
      {windows && (
        <div className="scan-flag">
          <Typography.Text>
            {t('scan.credentials.windows', {
              user: windows.userName ?? '',
              domain: windows.domain ?? '',
            })}
          </Typography.Text>{' '}
          <SecretValue
            label={t('scan.credentials.windowsPassword')}
            isSet={windows.passwordSet === true || Boolean(windows.password)}
            onReplace={(password) =>
              onChange({
                windowsAuthenticationInfo: { ...windows, password, passwordSet: password !== '' },
              })
            }
            onClear={() =>
              onChange({
                windowsAuthenticationInfo: { ...windows, password: '', passwordSet: false },
              })
            }
          />
        </div>
      )}
      {forms.map((entry, index) => (
        <div
          className="scan-flag"
          key={`${entry.loginUrl ?? ''} ${entry.fieldName ?? ''} ${index}`}
        >
          <Typography.Text>
            {t('scan.credentials.formField', {
              field: entry.fieldName ?? '',
              url: entry.loginUrl ?? '',
            })}
          </Typography.Text>{' '}
          <SecretValue
            label={t('scan.credentials.formValue', { field: entry.fieldName ?? '' })}
            isSet={entry.fieldValueSet === true || Boolean(entry.fieldValue)}
            onReplace={(fieldValue) =>
              setForm(index, { fieldValue, fieldValueSet: fieldValue !== '' })
            }
            onClear={() => setForm(index, { fieldValue: '', fieldValueSet: false })}
          />
        </div>
      ))}
    </div>
  );
}
