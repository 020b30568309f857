/**
 * The page's calls to the admin API: same origin, relative URLs, so no request can leave the
 * sandbox (the document's Content-Security-Policy refuses any other origin as well). With an admin
 * token configured, the first 401 asks for it once; it is kept in this tab's session storage and
 * sent as `X-Admin-Token` (README "Admin API").
 */
const TOKEN_KEY = 'creator-commerce-mock:admin-token';
const ADMIN = '/__admin';

export class AdminCallFailed extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class AdminApi {
  /** The pending question for the token: concurrent calls that meet a 401 wait for the same answer. */
  private asking: Promise<void> | undefined;

  constructor(private readonly askToken: (refused: boolean) => Promise<string>) {}

  private headers(body: unknown): Record<string, string> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (token !== null) headers['X-Admin-Token'] = token;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    return headers;
  }

  private async send(method: string, path: string, body: unknown): Promise<Response> {
    return fetch(ADMIN + path, {
      method,
      headers: this.headers(body),
      body: body === undefined ? null : JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store',
    });
  }

  private token(refused: boolean): Promise<void> {
    this.asking ??= this.askToken(refused).then((token) => {
      sessionStorage.setItem(TOKEN_KEY, token);
      this.asking = undefined;
    });
    return this.asking;
  }

  /** The parsed answer of a successful call; a failure throws `AdminCallFailed` with the envelope's message. */
  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response = await this.send(method, path, body);
    while (response.status === 401) {
      await this.token(sessionStorage.getItem(TOKEN_KEY) !== null);
      response = await this.send(method, path, body);
    }
    const text = await response.text();
    const parsed: unknown = text === '' ? null : JSON.parse(text);
    if (!response.ok) {
      const message = (parsed as { error?: { message?: string } } | null)?.error?.message ?? `HTTP ${response.status}`;
      throw new AdminCallFailed(response.status, message);
    }
    return parsed as T;
  }
}
