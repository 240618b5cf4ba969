import {
  scanRequestSchema,
  type FormAuthentication,
  type ScanRequest,
  type ScanRequestInput,
  type WindowsAuthentication,
} from '@linkaudit/core';
import type { SecretBox } from './secret-box.js';

/**
 * A scan's credentials at rest (issue 36). In a stored settings_json the secret values are not
 * in the credentials themselves: one `sealedCredentials` envelope (secret-box.ts) holds them,
 * the Windows password and each form entry's value by position. Every read of the settings
 * through scanRequestSchema drops that unknown field, so no answer (the owner's scan list, the
 * operators' list, the report summary, schedules) can carry a secret, sealed or not.
 *
 * - `sealedSettings`: what to store for a request holding clear values;
 * - `openedSettings`: the stored settings with their values back (the worker, and edits that
 *   keep what is stored);
 * - `shownSettings`: what answers carry: no values, `passwordSet` / `fieldValueSet` instead.
 */

interface SealedValues {
  windowsPassword?: string;
  /** By position in formAuthenticationInfo; null where an entry has no value. */
  formValues: (string | null)[];
}

/** Stored settings of an older row: values in clear, before they were sealed (issue 36). */
type StoredSettings = Record<string, unknown> & { sealedCredentials?: unknown };

function withoutFlags(entry: FormAuthentication): FormAuthentication {
  const { fieldValueSet: _set, ...rest } = entry;
  return rest;
}

/** A request's settings as stored: its credentials' values sealed, the flags dropped. */
export function sealedSettings<T extends ScanRequest>(
  box: SecretBox,
  settings: T,
): T & { sealedCredentials?: string } {
  const windows = settings.windowsAuthenticationInfo;
  const values: SealedValues = {
    ...(windows?.password ? { windowsPassword: windows.password } : {}),
    formValues: settings.formAuthenticationInfo.map((entry) => entry.fieldValue || null),
  };
  // Whether each value is set stays readable without the key (shownSettings).
  const formAuthenticationInfo = settings.formAuthenticationInfo.map((entry) => {
    const { fieldValue, ...rest } = withoutFlags(entry);
    return { ...rest, fieldValueSet: Boolean(fieldValue) };
  });
  let windowsAuthenticationInfo: WindowsAuthentication | null = null;
  if (windows) {
    const { password, passwordSet: _set, ...rest } = windows;
    windowsAuthenticationInfo = { ...rest, passwordSet: Boolean(password) };
  }
  const anything = values.windowsPassword !== undefined || values.formValues.some(Boolean);
  return {
    ...settings,
    formAuthenticationInfo,
    windowsAuthenticationInfo,
    ...(anything ? { sealedCredentials: box.seal(JSON.stringify(values)) } : {}),
  };
}

/** The values a stored row holds: sealed, or in clear in a row older than sealing. */
function storedValues(box: SecretBox, stored: StoredSettings): SealedValues {
  if (typeof stored.sealedCredentials === 'string') {
    return JSON.parse(box.open(stored.sealedCredentials)) as SealedValues;
  }
  const clear = scanRequestSchema.parse(stored);
  return {
    ...(clear.windowsAuthenticationInfo?.password
      ? { windowsPassword: clear.windowsAuthenticationInfo.password }
      : {}),
    formValues: clear.formAuthenticationInfo.map((entry) => entry.fieldValue || null),
  };
}

/** The stored settings with their credentials' values in clear (parse them with the schema). */
export function openedSettings(box: SecretBox, settingsJson: string): Record<string, unknown> {
  const stored = JSON.parse(settingsJson) as StoredSettings;
  const values = storedValues(box, stored);
  const { sealedCredentials: _sealed, ...settings } = stored;
  const request = scanRequestSchema.parse(settings);
  const windows = request.windowsAuthenticationInfo;
  return {
    ...settings,
    formAuthenticationInfo: request.formAuthenticationInfo.map((entry, index) => {
      const value = values.formValues[index];
      return value ? { ...withoutFlags(entry), fieldValue: value } : withoutFlags(entry);
    }),
    windowsAuthenticationInfo: windows && {
      userName: windows.userName,
      domain: windows.domain,
      ...(values.windowsPassword ? { password: values.windowsPassword } : {}),
    },
  };
}

/** A stored row's settings with its clear values sealed (rows older than sealing). */
export function resealedSettings(box: SecretBox, settingsJson: string): string {
  const opened = openedSettings(box, settingsJson) as ScanRequest & Record<string, unknown>;
  return JSON.stringify(sealedSettings(box, opened));
}

/** The settings answers carry: each secret left out, and said whether it is set. */
export function shownSettings(settingsJson: string): ScanRequest {
  const request = scanRequestSchema.parse(JSON.parse(settingsJson));
  // Sealed rows say whether each value is set; older rows hold the value itself.
  const isSet = (flag: boolean | undefined, value: string | undefined) =>
    flag === true || (value !== undefined && value !== '');
  const windows = request.windowsAuthenticationInfo;
  return {
    ...request,
    formAuthenticationInfo: request.formAuthenticationInfo.map(
      ({ fieldValue, fieldValueSet, ...entry }) => ({
        ...entry,
        fieldValueSet: isSet(fieldValueSet, fieldValue),
      }),
    ),
    windowsAuthenticationInfo: windows && {
      ...(windows.userName !== undefined ? { userName: windows.userName } : {}),
      ...(windows.domain !== undefined ? { domain: windows.domain } : {}),
      passwordSet: isSet(windows.passwordSet, windows.password),
    },
  };
}

/**
 * An edited request with the stored values it keeps: a credential that leaves its value out
 * and says it is set (`passwordSet`, `fieldValueSet`) keeps the current one (a form entry: the
 * current entry with the same login URL and field name); a given value replaces it; an empty
 * or missing one clears it.
 */
export function keepingStoredValues<T extends ScanRequestInput>(
  edited: T,
  current: ScanRequest,
): T {
  const windows = edited.windowsAuthenticationInfo;
  const keptPassword =
    windows && windows.password === undefined && windows.passwordSet
      ? current.windowsAuthenticationInfo?.password
      : undefined;
  return {
    ...edited,
    ...(windows && {
      windowsAuthenticationInfo: { ...windows, password: keptPassword ?? windows.password },
    }),
    ...(edited.formAuthenticationInfo && {
      formAuthenticationInfo: edited.formAuthenticationInfo.map((entry) => {
        if (entry.fieldValue !== undefined || !entry.fieldValueSet) return entry;
        const same = current.formAuthenticationInfo.find(
          (item) => item.loginUrl === entry.loginUrl && item.fieldName === entry.fieldName,
        );
        return { ...entry, fieldValue: same?.fieldValue };
      }),
    }),
  };
}
