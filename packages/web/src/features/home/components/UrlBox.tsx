import { Button, Form, Input, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isValidScanUrl, limits, normalizeScanUrl } from '@linkaudit/core';
import { useDebouncedValue } from '../../../lib/use-debounced-value';

const storageKey = 'linkaudit.homeUrl';

function readRememberedUrl(): string {
  try {
    return localStorage.getItem(storageKey) ?? '';
  } catch {
    return '';
  }
}

/**
 * The address box of the home page: remembered locally, validated live (SPEC §5: 200 ms
 * debounce, 'Checking URL, please wait..' meanwhile), Scan Now disabled while empty.
 */
export function UrlBox({ onScan }: { onScan: (url: string) => void }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState(readRememberedUrl);
  const checkedUrl = useDebouncedValue(url, limits.urlValidationDebounceMs);
  const checking = url !== checkedUrl;
  const invalid = !checking && checkedUrl.trim() !== '' && !isValidScanUrl(checkedUrl);

  useEffect(() => {
    try {
      localStorage.setItem(storageKey, url);
    } catch {
      // private mode: remembering is a convenience, not a requirement
    }
  }, [url]);

  const submit = () => {
    if (!isValidScanUrl(url)) return;
    const normalized = normalizeScanUrl(url);
    setUrl(normalized);
    onScan(normalized);
  };

  let help: string | undefined;
  if (checking && url.trim() !== '') help = t('home.checkingUrl');
  else if (invalid) help = t('home.invalidUrl');

  return (
    <Form className="url-box" onFinish={submit} layout="vertical">
      <Form.Item
        validateStatus={
          invalid ? 'error' : checking && url.trim() !== '' ? 'validating' : undefined
        }
        help={help}
        label={t('home.urlLabel')}
        htmlFor="home-url"
      >
        <Space.Compact className="url-box-row">
          <Input
            id="home-url"
            size="large"
            value={url}
            placeholder={t('home.urlPlaceholder')}
            onChange={(event) => setUrl(event.target.value)}
            autoComplete="url"
            inputMode="url"
          />
          <Button
            size="large"
            type="primary"
            htmlType="submit"
            disabled={url.trim() === '' || invalid}
          >
            {t('home.scanNow')}
          </Button>
        </Space.Compact>
      </Form.Item>
    </Form>
  );
}
