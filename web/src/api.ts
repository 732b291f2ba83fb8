// Every call goes through here: the token from the browser's storage, errors with the API's message.

const TOKEN_KEY = "raysweep.token";

export const tokenStore = {
  get: (): string | null => localStorage.getItem(TOKEN_KEY),
  set: (token: string): void => localStorage.setItem(TOKEN_KEY, token),
  clear: (): void => localStorage.removeItem(TOKEN_KEY),
};

export class ApiError extends Error {
  constructor(public status: number, message: string, public details: { path: string; message: string }[] = []) {
    super(message);
  }
}

type Query = Record<string, string | number | boolean | (string | number)[] | undefined | null>;

export function queryString(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === "") continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

export async function api<T>(
  path: string,
  options: { method?: string; query?: Query; token?: string; body?: unknown; signal?: AbortSignal } = {},
): Promise<T> {
  const token = options.token ?? tokenStore.get();
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(`/api/v1${path}${queryString(options.query)}`, {
    method: options.method ?? "GET",
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    let details: { path: string; message: string }[] = [];
    try {
      const body = await response.json();
      message = body.error?.message ?? message;
      details = body.error?.details ?? [];
    } catch {
      // not JSON: keep the status line
    }
    if (response.status === 401 && !options.token) window.dispatchEvent(new CustomEvent("raysweep:unauthorized"));
    throw new ApiError(response.status, message, details);
  }
  return response.status === 204 ? (undefined as T) : ((await response.json()) as T);
}
