/**
 * A browser as far as redirects and cookies go: follows redirects one at a time, keeps cookies
 * (by host, as browsers do, ignoring the port), and stops where the page would load.
 */
export class TestBrowser {
  readonly #cookies = new Map<string, Map<string, string>>();

  /** Follows redirects from `url` until the next location satisfies `stop`, which is returned. */
  async navigate(url: string, stop: (location: URL) => boolean, maxHops = 20): Promise<URL> {
    let current = new URL(url);
    for (let hop = 0; hop < maxHops; hop += 1) {
      const response = await fetch(current, {
        redirect: 'manual',
        headers: { cookie: this.#cookieHeader(current) },
      });
      this.#remember(current, response.headers.getSetCookie());
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) {
        throw new Error(`${current.href} answered ${response.status}: ${await response.text()}`);
      }
      await response.body?.cancel();
      current = new URL(location, current);
      if (stop(current)) return current;
    }
    throw new Error(`more than ${maxHops} redirects from ${url}`);
  }

  forget(host: string, name: string): void {
    this.#cookies.get(host)?.delete(name);
  }

  #cookieHeader(url: URL): string {
    const jar = this.#cookies.get(url.hostname);
    return jar ? [...jar].map(([name, value]) => `${name}=${value}`).join('; ') : '';
  }

  #remember(url: URL, setCookies: string[]): void {
    const jar = this.#cookies.get(url.hostname) ?? new Map<string, string>();
    this.#cookies.set(url.hostname, jar);
    for (const header of setCookies) {
      const [pair = '', ...attributes] = header.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const expired = attributes.some((attribute) => {
        const [key = '', attributeValue = ''] = attribute.trim().split('=');
        if (key.toLowerCase() === 'max-age') return Number(attributeValue) <= 0;
        if (key.toLowerCase() === 'expires') return Date.parse(attributeValue) <= Date.now();
        return false;
      });
      if (expired || value === '') jar.delete(name);
      else jar.set(name, value);
    }
  }
}
