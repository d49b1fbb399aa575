import type { UsageCountersRepository, UsageIncrement } from '../../store/usage-counters.js';

/** Minimal logger the recorder reports flush failures to. */
export interface UsageLogger {
  warn(details: object, message: string): void;
}

export interface UsageRecorderOptions {
  readonly repository: UsageCountersRepository;
  readonly flushIntervalMs: number;
  readonly log: UsageLogger;
  /** Injected for tests; the month a request counts in is the UTC month of this clock. */
  readonly now?: () => Date;
}

/**
 * Counts requests in memory, per customer, service, month and endpoint, and writes them to the store in
 * batches: at most every `flushIntervalMs` and at shutdown. A failed write keeps its counts for the next
 * flush, so nothing is lost but what a crash takes in the last interval; the store adds increments
 * atomically, so replicas never overwrite each other.
 *
 * @example
 * const usage = new UsageRecorder({ repository, flushIntervalMs: 1000, log });
 * usage.start();
 * usage.record('face-matching', '/identify/{cacheName}', customerScopeOf(request));
 * await usage.stop(); // final flush
 */
export class UsageRecorder {
  readonly #options: UsageRecorderOptions;
  #pending = new Map<string, UsageIncrement>();
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();

  constructor(options: UsageRecorderOptions) {
    this.#options = options;
  }

  /**
   * Counts one request to `endpoint` (the route's path template) of service `serverName`, made for
   * `customer` (the request's customer scope; '' without authentication).
   */
  record(serverName: string, endpoint: string, customer: string): void {
    const at = (this.#options.now ?? (() => new Date()))();
    const year = at.getUTCFullYear();
    const month = at.getUTCMonth() + 1;
    // NUL occurs in no customer name, service name or route template: the key is unambiguous.
    const key = `${customer}\u0000${serverName}\u0000${year}\u0000${month}\u0000${endpoint}`;
    const current = this.#pending.get(key);
    this.#pending.set(key, { customer, serverName, year, month, endpoint, counter: (current?.counter ?? 0) + 1 });
  }

  /** Number of requests counted but not yet written. */
  get pendingCount(): number {
    let total = 0;
    for (const count of this.#pending.values()) total += count.counter;
    return total;
  }

  /**
   * Writes everything counted so far. Flushes run one after another, so a report that flushes
   * before reading sees every request this process has answered.
   */
  flush(): Promise<void> {
    const next = this.#flushing.then(() => this.#writePending());
    this.#flushing = next.catch(() => undefined);
    return next;
  }

  start(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => {
      this.flush().catch((error: unknown) => {
        this.#options.log.warn(
          { err: error, pending: this.pendingCount },
          'usage counters not written; kept for the next flush',
        );
      });
    }, this.#options.flushIntervalMs);
    this.#timer.unref();
  }

  /** Stops the timer and writes what is left. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }

  async #writePending(): Promise<void> {
    if (this.#pending.size === 0) return;
    const batch = this.#pending;
    this.#pending = new Map();
    try {
      await this.#options.repository.addCounts([...batch.values()]);
    } catch (error) {
      // Put the counts back (adding to what arrived meanwhile) so the next flush retries them.
      for (const [key, count] of batch) {
        const current = this.#pending.get(key);
        this.#pending.set(key, { ...count, counter: count.counter + (current?.counter ?? 0) });
      }
      throw error;
    }
  }
}
