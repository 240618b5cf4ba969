import type { HookAPI } from 'antd/es/modal/useModal';

export interface AlertOptions {
  title: string;
  content?: string;
  /** SPEC §2 Dialogs: an alert may close itself after this many milliseconds. */
  autoCloseMs?: number;
  okText?: string;
}

/**
 * An alert dialog (SPEC §2 Dialogs): a warning with one button, closing by itself when a timer
 * is given. The timer is dropped when the user closes it first.
 */
export function showAlert(modal: HookAPI, options: AlertOptions): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const dialog = modal.warning({
    title: options.title,
    content: options.content,
    okText: options.okText,
    className: 'alert-dialog',
    afterClose: () => clearTimeout(timer),
  });
  if (options.autoCloseMs) timer = setTimeout(() => dialog.destroy(), options.autoCloseMs);
}
