/**
 * Spec 4.4 / 5.2 path A: the link `{passenger_base_url}?token=<jwt>`. The app takes the token out
 * of the address before anything renders or is fetched (so it is in no history entry, screenshot
 * or shared URL), then exchanges it for the session cookie.
 */
export interface LinkToken {
  token: string | undefined;
  /** The address without `token`, every other part kept. */
  cleanUrl: string;
}

export function takeLinkToken(href: string): LinkToken {
  const url = new URL(href);
  const token = url.searchParams.get("token") ?? undefined;
  url.searchParams.delete("token");
  return { token: token === "" ? undefined : token, cleanUrl: `${url.pathname}${url.search}${url.hash}` };
}
