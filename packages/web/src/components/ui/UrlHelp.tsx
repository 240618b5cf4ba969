import { useTranslation } from 'react-i18next';
import { maxScanUrlLength } from '@linkaudit/core';

/**
 * The address box's one message (SPEC §5): 'Checking URL, please wait..' while typing, else
 * 'The URL entered is invalid' (or that it is too long). A plain element in the field's `extra`, not its animated `help`
 * list, which keeps a leaving message on screen beside the new one.
 */
export function UrlHelp({
  checking,
  invalid,
  url = '',
}: {
  checking: boolean;
  invalid: boolean;
  /** The address checked: one too long is told so, with the limit (issue 37). */
  url?: string;
}) {
  const { t } = useTranslation();
  const tooLong = url.trim().length > maxScanUrlLength;
  const invalidText = tooLong
    ? t('home.urlTooLong', { max: maxScanUrlLength.toLocaleString() })
    : t('home.invalidUrl');
  const text = checking ? t('home.checkingUrl') : invalid ? invalidText : '';
  return (
    <div className={invalid && !checking ? 'url-help url-help-error' : 'url-help'} role="status">
      {text}
    </div>
  );
}
