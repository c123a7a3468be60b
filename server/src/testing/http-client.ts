/**
 * A small cookie-keeping HTTP client for integration tests: it follows redirects by hand so tests can
 * stop at any step of the sign-in flow, and sends the same-origin Origin header a browser would.
 */
export class TestClient {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
    const url = new URL(path, this.baseUrl);
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('cookie', this.cookieHeader());
    if (url.origin === new URL(this.baseUrl).origin && !headers.has('origin')) headers.set('origin', url.origin);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(init.json);
    }
    const response = await fetch(url, { ...init, body, headers, redirect: 'manual' });
    this.store(response);
    return response;
  }

  /** Follows redirects from `path`, returning the final response and every URL visited. */
  async follow(path: string, init: RequestInit = {}): Promise<{ response: Response; visited: string[] }> {
    const visited: string[] = [];
    let response = await this.request(path, init);
    let current = new URL(path, this.baseUrl).href;
    visited.push(current);
    for (let hops = 0; hops < 20 && response.status >= 300 && response.status < 400; hops++) {
      const location = response.headers.get('location');
      if (!location) break;
      current = new URL(location, current).href;
      visited.push(current);
      response = await this.request(current);
    }
    return { response, visited };
  }

  private store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = /max-age=0|expires=thu, 01 jan 1970/i.test(line);
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

/**
 * Signs in through the built-in provider exactly as a browser does: /api/login → provider form →
 * POST Name/Email/Password → callback → session cookie.
 */
export async function signInBuiltIn(
  client: TestClient,
  person: { name: string; email: string; password?: string },
  returnTo?: string,
): Promise<Response> {
  const loginPath = returnTo ? `/api/login?returnTo=${encodeURIComponent(returnTo)}` : '/api/login';
  const { response: form, visited } = await client.follow(loginPath);
  const formUrl = visited.at(-1)!;
  if (!(await form.clone().text()).includes('Sign in')) {
    return form; // already signed in at the provider: the flow finished without a form
  }
  const body = new URLSearchParams({
    name: person.name,
    email: person.email,
    password: person.password ?? 'correct horse battery',
  });
  const posted = await client.request(formUrl, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  if (posted.status !== 303) return posted;
  const { response } = await client.follow(new URL(posted.headers.get('location')!, formUrl).href);
  return response;
}
