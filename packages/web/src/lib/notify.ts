import type { MessageInstance } from 'antd/es/message/interface';

/**
 * Toasts from outside React (the query cache's error handler). `NotifierBridge` hands over the
 * message API of antd's <App>, which carries the theme and the locale; the look (4 s, across the
 * top at full width, SPEC §8) is set on <App> and in styles.css.
 */
let messageApi: MessageInstance | undefined;

export function setMessageApi(api: MessageInstance): void {
  messageApi = api;
}

export function toastError(text: string): void {
  void messageApi?.error(text);
}

export function toastSuccess(text: string): void {
  void messageApi?.success(text);
}

export function toastWarning(text: string): void {
  void messageApi?.warning(text);
}
