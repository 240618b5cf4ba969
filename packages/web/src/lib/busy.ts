/**
 * The `loading` value for a button whose action is pending. The spinner appears only when the
 * action takes longer than a moment: most of our answers arrive in tens of milliseconds, and
 * antd's spinner, switched off again while its entry animation is still running, can stay in the
 * button (invisible, but still named "loading" to screen readers) because the exit transition
 * never ends. A short delay avoids both that and a distracting flash.
 */
export function busy(pending: boolean): false | { delay: number } {
  return pending && { delay: 250 };
}
