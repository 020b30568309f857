/**
 * A tiny API client of the kind a client project would test against the sandbox: it retries 429
 * and 5xx with backoff, preferring Retry-After (spec §8), keeps one Idempotency-Key across the
 * retries of a write (spec §7.3.5), reports deprecation notices (spec §9), and polls jobs.
 */
import { randomUUID } from 'node:crypto';

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  maxRetries?: number;
  /** How the client waits; tests pass one that records or advances the sandbox's clock. */
  sleep?: (ms: number) => Promise<void>;
  onDeprecation?: (notice: DeprecationNotice) => void;
}

export interface DeprecationNotice {
  method: string;
  path: string;
  deprecation: string;
  sunset: string | null;
  link: string | null;
}

export class CommerceApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null,
  ) {
    super(`${status} ${code}: ${message}`);
    this.name = 'CommerceApiError';
  }
}

export class CrawlFailedError extends Error {
  constructor(readonly job: Job) {
    super(`crawl ${job.id} failed: ${job.error_code}: ${job.error}`);
    this.name = 'CrawlFailedError';
  }
}

export interface Job {
  id: string;
  status: 'queued' | 'processing' | 'completed' | 'failed' | 'cancelled';
  progress: number;
  error: string | null;
  error_code: string | null;
  credits_used: number;
  result: { pages_count: number } | null;
}

export interface Page<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
}

const RETRYABLE = (status: number) => status === 429 || status >= 500;

export class CommerceClient {
  private readonly maxRetries: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: ClientOptions) {
    this.maxRetries = options.maxRetries ?? 3;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  async request<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.options.apiKey}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    // One key for every attempt: a retried write is applied at most once.
    if (method !== 'GET') headers['Idempotency-Key'] = randomUUID();
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${this.options.baseUrl}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const deprecation = res.headers.get('Deprecation');
      if (deprecation) {
        this.options.onDeprecation?.({ method, path, deprecation, sunset: res.headers.get('Sunset'), link: res.headers.get('Link') });
      }
      const payload = (await res.json()) as T & { error?: { code: string; message: string } };
      if (res.ok) return payload;
      if (RETRYABLE(res.status) && attempt < this.maxRetries) {
        await this.sleep(this.backoff(attempt, res.headers.get('Retry-After')));
        continue;
      }
      throw new CommerceApiError(res.status, payload.error?.code ?? 'unknown', payload.error?.message ?? '', res.headers.get('Request-Id'));
    }
  }

  /** Retry-After when the server says (spec §8), else exponential backoff with jitter. */
  private backoff(attempt: number, retryAfter: string | null): number {
    if (retryAfter !== null && /^\d+$/.test(retryAfter)) return Number(retryAfter) * 1000;
    return 2 ** attempt * 250 + Math.floor(Math.random() * 100);
  }

  listExperiences(type?: string): Promise<Page<{ id: string; type: string }>> {
    return this.request('GET', `/experiences${type ? `?type=${encodeURIComponent(type)}` : ''}`);
  }

  submitForm(input: { form_id: string; email: string; name?: string; answers?: Record<string, string> }): Promise<{ id: string }> {
    return this.request('POST', '/form_submissions', input);
  }

  crawl(url: string, maxPages = 5): Promise<Job> {
    return this.request('POST', '/web/crawl', { url, max_pages: maxPages });
  }

  getJob(id: string): Promise<Job> {
    return this.request('GET', `/jobs/${encodeURIComponent(id)}`);
  }

  /** Crawls and polls until the job ends; a failed job becomes a CrawlFailedError. */
  async crawlAndWait(url: string, pollMs = 1000): Promise<Job> {
    let job = await this.crawl(url);
    while (job.status === 'queued' || job.status === 'processing') {
      await this.sleep(pollMs);
      job = await this.getJob(job.id);
    }
    if (job.status === 'failed') throw new CrawlFailedError(job);
    return job;
  }
}
