/**
 * A closed-loop HTTP load generator over real sockets: `concurrency` clients, each sending its next
 * request as soon as its previous answer has arrived (keep-alive connections, one per client).
 */
import http from 'node:http';

/** One request to send: a POST with a JSON body (serialised once, up front, by the caller). */
export interface LoadRequest {
  /** Groups the results, e.g. 'compare' or 'malformed'. */
  readonly kind: string;
  readonly path: string;
  readonly body: string;
}

/** One answered (or failed) request. */
export interface LoadSample {
  readonly kind: string;
  /** Milliseconds from sending the first byte to the last byte of the answer. */
  readonly ms: number;
  /** HTTP status; 0 when the connection failed. */
  readonly status: number;
  /** Milliseconds since the run started, at the answer. */
  readonly at: number;
}

export interface LoadOptions {
  readonly url: string;
  readonly concurrency: number;
  /** The request with this sequence number (0, 1, 2, ... across all clients). */
  readonly next: (sequence: number) => LoadRequest;
  /** Stop after this many requests in all ... */
  readonly requests?: number;
  /** ... or after this many milliseconds (no new request starts later). */
  readonly durationMs?: number;
  /** Called with every sample as it arrives. */
  readonly onSample?: (sample: LoadSample) => void;
}

function post(agent: http.Agent, url: URL, request: LoadRequest): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: request.path,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(request.body) },
      },
      (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
        res.on('error', () => resolve({ status: 0, bytes }));
      },
    );
    req.on('error', () => resolve({ status: 0, bytes: 0 }));
    req.end(request.body);
  });
}

/**
 * Runs the load and returns every sample in answer order.
 *
 * @example
 * const samples = await closedLoop({ url, concurrency: 4, requests: 100, next: () => compareRequest });
 */
export async function closedLoop(options: LoadOptions): Promise<LoadSample[]> {
  if (options.requests === undefined && options.durationMs === undefined)
    throw new Error('closedLoop needs requests or durationMs');
  const url = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const samples: LoadSample[] = [];
  const started = performance.now();
  let sequence = 0;
  const more = (): boolean =>
    (options.requests === undefined || sequence < options.requests) &&
    (options.durationMs === undefined || performance.now() - started < options.durationMs);
  const client = async (): Promise<void> => {
    while (more()) {
      const request = options.next(sequence);
      sequence += 1;
      const sent = performance.now();
      const { status } = await post(agent, url, request);
      const now = performance.now();
      const sample = { kind: request.kind, ms: now - sent, status, at: now - started };
      samples.push(sample);
      options.onSample?.(sample);
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, client));
  } finally {
    agent.destroy();
  }
  return samples;
}

/** Latency percentiles of a set of samples (nearest rank). */
export interface LatencySummary {
  readonly count: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
  readonly mean: number;
}

/**
 * Nearest-rank percentiles of the samples' latencies.
 *
 * @example
 * summarize(samples.filter((s) => s.status === 200)); // { count, p50, p95, p99, max, mean }
 */
export function summarize(samples: readonly LoadSample[]): LatencySummary {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  const rank = (q: number): number => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
  return {
    count: sorted.length,
    p50: rank(0.5),
    p95: rank(0.95),
    p99: rank(0.99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
    mean: sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length),
  };
}
