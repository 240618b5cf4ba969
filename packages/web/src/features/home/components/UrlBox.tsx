import { Button, Form, Input, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isValidScanUrl, limits, normalizeScanUrl } from '@linkaudit/core';
import { UrlHelp } from '../../../components/ui/UrlHelp';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useServerVersion } from '../../../lib/api/get-server-version';

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
  // A server that scans private addresses says so; the box then takes 127.0.0.1:8080 too.
  const urlOptions = { allowPrivate: useServerVersion().data?.privateTargets ?? false };
  const checkedUrl = useDebouncedValue(url, limits.urlValidationDebounceMs);
  const checking = url !== checkedUrl;
  const invalid = !checking && checkedUrl.trim() !== '' && !isValidScanUrl(checkedUrl, urlOptions);

  useEffect(() => {
    try {
      localStorage.setItem(storageKey, url);
    } catch {
      // private mode: remembering is a convenience, not a requirement
    }
  }, [url]);

  const submit = () => {
    if (!isValidScanUrl(url, urlOptions)) return;
    const normalized = normalizeScanUrl(url, urlOptions);
    setUrl(normalized);
    onScan(normalized);
  };

  return (
    <Form className="url-box" onFinish={submit} layout="vertical">
      <Form.Item
        validateStatus={
          invalid ? 'error' : checking && url.trim() !== '' ? 'validating' : undefined
        }
        extra={
          <UrlHelp checking={checking && url.trim() !== ''} invalid={invalid} url={checkedUrl} />
        }
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
