/**
 * One definition of "an absolute http(s) URL" for every body that takes one (a crawl's start URL,
 * a webhook endpoint's): a host present, written out exactly. `new URL` alone forgives leading
 * spaces and backslashes, which a client would then see echoed back differently from what it sent.
 */
export function isAbsoluteHttpUrl(url: string): boolean {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const absoluteHttp = (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
  return absoluteHttp && /^https?:\/\/[^\s/?#\\]/i.test(url) && !/\s/.test(url);
}
