import { describe, expect, it } from 'vitest';
import { parseWrk } from '../../bench/lib.js';

const WRK_OUTPUT = `Running 3s test @ http://127.0.0.1:4010/v1/status
  1 threads and 16 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   551.27us  312.02us  12.40ms   95.62%
    Req/Sec    29.36k     2.91k   33.48k    80.00%
  Latency Distribution
     50%  489.00us
     75%  560.00us
     90%  688.00us
     99%    1.63ms
  87653 requests in 3.00s, 55.27MB read
  Non-2xx or 3xx responses: 12
Requests/sec:  29217.53
Transfer/sec:     18.42MB
`;

describe('the benchmark reads wrk reports (bench/lib.ts)', () => {
  it('takes requests per second from the count and duration, p99 in ms, and the non-2xx count', () => {
    const result = parseWrk(WRK_OUTPUT);
    expect(result.total).toBe(87653);
    expect(result.rps).toBeCloseTo(87653 / 3, 6);
    expect(result.p99).toBeCloseTo(1.63, 6);
    expect(result.non2xx).toBe(12);
  });

  it('reads microsecond percentiles and a run without errors', () => {
    const result = parseWrk(WRK_OUTPUT.replace('1.63ms', '950.00us').replace(/ {2}Non-2xx.*\n/, ''));
    expect(result.p99).toBeCloseTo(0.95, 6);
    expect(result.non2xx).toBe(0);
  });

  it('refuses output that is not a wrk report', () => {
    expect(() => parseWrk('unable to connect to 127.0.0.1:1 Connection refused')).toThrow(/unexpected wrk output/);
  });
});
