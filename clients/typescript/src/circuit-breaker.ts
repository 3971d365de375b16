export interface CircuitBreakerOptions {
  /** Consecutive failures that open the breaker (default 5). */
  failureThreshold?: number;
  /** How long an open breaker skips calls, in seconds (default 30; fractions allowed). */
  cooldownSeconds?: number;
}

/**
 * Counts consecutive failed ad requests. After `failureThreshold` of them it opens: for
 * `cooldownSeconds` every call is skipped, so a slow or broken ad server costs the
 * publisher nothing. After the cooldown calls go out again; the first failure opens it at
 * once again (the count is still at the threshold), the first success closes it.
 */
export class CircuitBreaker {
  private readonly failureThreshold: number;
  private readonly cooldownMs: number;
  private consecutiveFailures = 0;
  private openUntil = 0;

  constructor(
    options: CircuitBreakerOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    this.failureThreshold = Math.max(1, options.failureThreshold ?? 5);
    this.cooldownMs = Math.max(0, (options.cooldownSeconds ?? 30) * 1000);
  }

  /** Whether a call may go out now. */
  allowsCall(): boolean {
    return this.now() >= this.openUntil;
  }

  /** Whether calls are being skipped right now. */
  get isOpen(): boolean {
    return !this.allowsCall();
  }

  recordSuccess(): void {
    this.consecutiveFailures = 0;
    this.openUntil = 0;
  }

  recordFailure(): void {
    this.consecutiveFailures += 1;
    if (this.consecutiveFailures >= this.failureThreshold) {
      this.openUntil = this.now() + this.cooldownMs;
    }
  }
}
