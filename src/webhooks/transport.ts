/**
 * One attempt over real HTTP: POST the payload, wait at most `timeoutMs` for the status. A non-2xx
 * status, a connection error or no answer in time is a failure (contract §4.3). The response body is
 * read and dropped, so the connection is freed. `abort` ends the attempt at once (world reset, close).
 */
export interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface SendInput {
  url: string;
  payload: string;
  headers: Record<string, string>;
  timeoutMs: number;
  abort: AbortSignal;
  /** Real-time source for `duration_ms` (the sandbox's, injectable). */
  realTime: () => number;
}

/** A readable reason from fetch's errors (the cause holds the socket's code: ECONNREFUSED…). */
function reasonOf(error: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `no answer within ${timeoutMs} ms`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `connection error: ${cause.code}`;
  if ((error as Error).name === 'AbortError') return 'cancelled: the sandbox was reset or closed';
  return `connection error: ${cause?.message ?? (error as Error).message}`;
}

export async function sendAttempt(input: SendInput): Promise<AttemptOutcome> {
  const started = input.realTime();
  const timeout = AbortSignal.timeout(input.timeoutMs);
  const signal = AbortSignal.any([timeout, input.abort]);
  try {
    const response = await fetch(input.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'creator-commerce-mock-webhooks', ...input.headers },
      body: input.payload,
      signal,
      redirect: 'manual',
    });
    // Drained within the same deadline: a receiver that sends headers and then stalls still fails.
    await response.arrayBuffer();
    const ok = response.status >= 200 && response.status < 300;
    return {
      statusCode: response.status,
      error: ok ? null : `receiver answered ${response.status}`,
      durationMs: input.realTime() - started,
    };
  } catch (error) {
    return { statusCode: null, error: reasonOf(error, timeout.aborted, input.timeoutMs), durationMs: input.realTime() - started };
  }
}
