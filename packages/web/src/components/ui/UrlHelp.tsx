import { useTranslation } from 'react-i18next';

/**
 * The address box's one message (SPEC §5): 'Checking URL, please wait..' while typing, else
 * 'The URL entered is invalid'. A plain element in the field's `extra`, not its animated `help`
 * list, which keeps a leaving message on screen beside the new one.
 */
export function UrlHelp({ checking, invalid }: { checking: boolean; invalid: boolean }) {
  const { t } = useTranslation();
  const text = checking ? t('home.checkingUrl') : invalid ? t('home.invalidUrl') : '';
  return (
    <div className={invalid && !checking ? 'url-help url-help-error' : 'url-help'} role="status">
      {text}
    </div>
  );
}
