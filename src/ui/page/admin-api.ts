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

  /** The answer once the token (if one is needed) is accepted. */
  private async authorized(method: string, path: string, body: unknown): Promise<Response> {
    let response = await this.send(method, path, body);
    while (response.status === 401) {
      await this.token(sessionStorage.getItem(TOKEN_KEY) !== null);
      response = await this.send(method, path, body);
    }
    return response;
  }

  private static async failure(response: Response): Promise<AdminCallFailed> {
    const text = await response.text();
    let message = `HTTP ${response.status}`;
    try {
      message = (JSON.parse(text) as { error?: { message?: string } } | null)?.error?.message ?? message;
    } catch {
      // Not the envelope (a proxy's page): the status says enough.
    }
    return new AdminCallFailed(response.status, message);
  }

  /** The parsed answer of a successful call; a failure throws `AdminCallFailed` with the envelope's message. */
  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await this.authorized(method, path, body);
    if (!response.ok) throw await AdminApi.failure(response);
    const text = await response.text();
    return (text === '' ? null : JSON.parse(text)) as T;
  }

  /**
   * The answer of a GET as a file the browser saves as `filename`. A plain link cannot send
   * `X-Admin-Token`, so the page fetches the bytes (with the token when one is kept) and saves them
   * through a Blob URL: one way whether or not the sandbox asks for a token.
   */
  async download(path: string, filename: string): Promise<void> {
    const response = await this.authorized('GET', path, undefined);
    if (!response.ok) throw await AdminApi.failure(response);
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement('a');
    link.href = url;
    link.download = filename;
    link.hidden = true;
    document.body.append(link);
    link.click();
    link.remove();
    // After the click has handed the bytes to the download: the URL is needed no longer.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
}
