/**
 * The Hub's limits on failed authentication, shaped so that nobody's failures lock out anyone
 * else's valid credential:
 *
 * - Sign-ins fail per user *and* address together (5 per 15 minutes): guessing one user's password
 *   from one address stops there, while the same user signing in from elsewhere is not affected (a
 *   per-user lock would let anyone lock anyone out from a few addresses). A second, much more generous
 *   bucket per address (50 per 15 minutes, across all users) stops one address spraying many users.
 * - API keys are never limited when valid: a key is 256 random bits, so failures cannot guess one;
 *   invalid keys are counted per address (30 a minute) only to tell a misconfigured or hostile client
 *   to back off (429 instead of 401).
 *
 * Addresses are the socket's, or the trusted proxy header's when the Hub is configured with one
 * (see `clientAddress`).
 */
import { RateLimiter } from "./rate-limiter.ts";

/** Options of `AuthLimits`. */
export interface AuthLimitsOptions {
  /** Failed sign-ins allowed per (user, address) in 15 minutes; default 5. */
  signInPerUserAddress: number;
  /** Failed sign-ins allowed per address, over all users, in 15 minutes; default 50. */
  signInPerAddress: number;
  /** Requests with invalid API keys allowed per address in a minute; default 30. */
  invalidKeysPerAddress: number;
  /** Clock, for tests; default Date.now. */
  now: () => number;
}

const DEFAULTS: AuthLimitsOptions = {
  signInPerUserAddress: 5,
  signInPerAddress: 50,
  invalidKeysPerAddress: 30,
  now: Date.now,
};

const FIFTEEN_MINUTES = 15 * 60_000;

/** Failure counting for sign-ins and API keys; see the file comment. */
export class AuthLimits {
  readonly #pair: RateLimiter;
  readonly #address: RateLimiter;
  readonly #keys: RateLimiter;

  constructor(options: Partial<AuthLimitsOptions> = {}) {
    const o = { ...DEFAULTS, ...options } satisfies AuthLimitsOptions;
    this.#pair = new RateLimiter({
      maxFailures: o.signInPerUserAddress,
      windowMs: FIFTEEN_MINUTES,
      now: o.now,
    });
    this.#address = new RateLimiter({
      maxFailures: o.signInPerAddress,
      windowMs: FIFTEEN_MINUTES,
      now: o.now,
    });
    this.#keys = new RateLimiter({ maxFailures: o.invalidKeysPerAddress, windowMs: 60_000, now: o.now });
  }

  /** Seconds `user` must wait before signing in from `address` again, or 0. */
  signInWait(user: string, address: string): number {
    return Math.max(this.#pair.retryAfter(pairKey(user, address)), this.#address.retryAfter(address));
  }

  /** Records a failed sign-in of `user` from `address`. */
  signInFailed(user: string, address: string): void {
    this.#pair.fail(pairKey(user, address));
    this.#address.fail(address);
  }

  /** Forgets `user`'s failures from `address` (the address's own count stays: it spans users). */
  signInSucceeded(user: string, address: string): void {
    this.#pair.reset(pairKey(user, address));
  }

  /** Records a request with an invalid key from `address`; returns seconds it must now wait, or 0. */
  invalidKey(address: string): number {
    this.#keys.fail(address);
    return this.#keys.retryAfter(address);
  }
}

// A newline cannot appear in a user name or an address, so the pair is unambiguous.
const pairKey = (user: string, address: string) => `${user}\n${address}`;
