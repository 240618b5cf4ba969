import { externalLoginsResponseSchema } from '@linkaudit/core';
import { TestBrowser } from './browser.js';

/**
 * The browser's round trip through an external provider: the provider's link in
 * externalLogins, the sign-in there, and back to the web app at `returnUrl`, whose URL fragment
 * (a token, or an error) is returned.
 */
export async function signInThroughProvider(
  baseUrl: string,
  provider: string,
  returnUrl = '/',
  browser = new TestBrowser(),
): Promise<URLSearchParams> {
  const query = `returnUrl=${encodeURIComponent(returnUrl)}&generateState=true`;
  const answer = await fetch(`${baseUrl}/api/account/externalLogins?${query}`);
  const links = externalLoginsResponseSchema.parse(await answer.json());
  const link = links.find((candidate) => candidate.name === provider);
  if (!link) throw new Error(`${provider} is not offered`);
  const landing = await browser.navigate(`${baseUrl}${link.url}`, (location) =>
    location.href.startsWith(`${baseUrl}${returnUrl}#`),
  );
  const fragment = new URLSearchParams(landing.hash.slice(1));
  // The web app matches the state it generated before it believes the fragment.
  if (fragment.get('state') !== link.state) {
    throw new Error(`state came back as ${fragment.get('state')}, not ${link.state}`);
  }
  return fragment;
}
