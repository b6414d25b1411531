/** A caller of the service's API with one bearer token, for seeding: any answer but the expected one throws. */
export interface Api {
  url: string;
  call<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T>;
  /** Uploads files to a file field in one multipart request (several `file` parts for a multi field). */
  upload(path: string, files: Array<{ name: string; type: string; bytes: Buffer }>): Promise<unknown>;
}

export function apiWith(url: string, token: string): Api {
  const send = async (method: string, path: string, body?: string | FormData, type?: string) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(type ? { 'Content-Type': type } : {}) },
      body,
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 500)}`);
    return text ? (JSON.parse(text) as unknown) : undefined;
  };
  return {
    url,
    call: <T>(method: string, path: string, body?: unknown) =>
      send(method, path, body === undefined ? undefined : JSON.stringify(body), 'application/json') as Promise<T>,
    upload: (path, files) => {
      const form = new FormData();
      for (const file of files) form.append('file', new Blob([file.bytes], { type: file.type }), file.name);
      return send('POST', path, form);
    },
  };
}

/** Signs in with the password grant of the `administration` client (the token endpoint keeps it for scripts). */
export async function passwordToken(url: string, username: string, password: string): Promise<string> {
  return tokenFrom(url, 'application/json', {
    body: JSON.stringify({ grant_type: 'password', client_id: 'administration', username, password }),
  });
}

/** An integration's access token (client credentials). */
export async function clientToken(url: string, id: string, secret: string): Promise<string> {
  const basic = Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64');
  return tokenFrom(url, 'application/x-www-form-urlencoded', {
    body: 'grant_type=client_credentials',
    headers: { Authorization: `Basic ${basic}` },
  });
}

async function tokenFrom(
  url: string,
  type: string,
  init: { body: string; headers?: Record<string, string> },
): Promise<string> {
  const res = await fetch(`${url}/api/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': type, ...init.headers },
    body: init.body,
  });
  if (!res.ok) throw new Error(`token: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}
