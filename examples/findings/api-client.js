/**
 * The client this project tests: a few calls of the Creator Commerce Platform API, with a retry
 * policy. `polite` is what the spec asks for (§8 back off and honour Retry-After, §7.3 retry a
 * write only with an Idempotency-Key, the same on every attempt); `hasty` is the retry loop a
 * client team writes in a hurry: it retries at once, ignores Retry-After and sends no key.
 */
import { randomUUID } from 'node:crypto';

const realSleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * @param {{ baseUrl: string, apiKey: string, policy?: 'polite' | 'hasty', retries?: number,
 *   sleep?: (ms: number) => Promise<unknown> }} options `sleep` waits for real by default; a test
 *   may advance the sandbox account's clock instead (the sandbox judges both alike).
 */
export function createClient({ baseUrl, apiKey, policy = 'polite', retries = 4, sleep = realSleep }) {
  const polite = policy === 'polite';

  async function request(method, path, body) {
    const headers = { Authorization: `Bearer ${apiKey}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    // One key for every attempt of this write, so the sandbox applies it once (spec §7.3).
    if (polite && method !== 'GET') headers['Idempotency-Key'] = randomUUID();
    for (let attempt = 0; ; attempt += 1) {
      let res;
      try {
        res = await fetch(`${baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      } catch (error) {
        // The connection was reset or closed: the answer is lost, not necessarily the write.
        if (attempt >= retries) throw error;
        if (polite) await sleep(backoff(attempt));
        continue;
      }
      const retryable = res.status === 429 || res.status >= 500;
      if (!retryable || attempt >= retries) {
        const text = await res.text();
        if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
        return text === '' ? null : JSON.parse(text);
      }
      await res.arrayBuffer();
      if (polite) await sleep(Math.max(backoff(attempt), retryAfterMs(res)));
    }
  }

  return {
    status: () => request('GET', '/status'),
    createKey: (name) => request('POST', '/auth/keys', { name }),
  };
}

/** 500 ms, doubling. */
function backoff(attempt) {
  return 500 * 2 ** attempt;
}

function retryAfterMs(res) {
  const seconds = Number(res.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0;
}
