/** JSON (and form) requests to a test server, answering status and parsed body. */
export interface ApiAnswer {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- asserted field by field in tests
}

export interface ApiClient {
  get(path: string, token?: string, headers?: Record<string, string>): Promise<ApiAnswer>;
  post(
    path: string,
    body?: unknown,
    token?: string,
    headers?: Record<string, string>,
  ): Promise<ApiAnswer>;
  /** A form-encoded POST, as the old client sent /token. */
  form(path: string, fields: Record<string, string>): Promise<ApiAnswer>;
  /** Any method (PUT, DELETE …), with a JSON body when one is given. */
  send(method: string, path: string, body?: unknown, token?: string): Promise<ApiAnswer>;
}

export function apiClient(baseUrl: string): ApiClient {
  const send = async (path: string, init: RequestInit): Promise<ApiAnswer> => {
    const response = await fetch(`${baseUrl}${path}`, init);
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text ? (JSON.parse(text) as unknown) : undefined,
    };
  };
  const auth = (token?: string): Record<string, string> =>
    token ? { authorization: `Bearer ${token}` } : {};
  const withBody = (
    method: string,
    path: string,
    body: unknown,
    token?: string,
    headers: Record<string, string> = {},
  ) =>
    send(path, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...auth(token),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return {
    get: (path, token, headers = {}) => send(path, { headers: { ...auth(token), ...headers } }),
    post: (path, body, token, headers = {}) => withBody('POST', path, body, token, headers),
    send: (method, path, body, token) => withBody(method, path, body, token),
    form: (path, fields) =>
      send(path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      }),
  };
}
