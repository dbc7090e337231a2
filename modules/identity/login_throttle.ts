/**
 * Login throttling of the embedded provider's login form (docs/operations.md, "Lockout
 * policy"), per account (the e-mail typed, known or not) and per client address. After a few
 * failures each further attempt must wait a growing delay; after more, the account or address
 * is locked for a while. Attempts that must wait are answered 429 without the password being
 * checked. State lives in memory, in maps of bounded size.
 */

/** How one scope (account or address) is throttled. */
export interface ThrottlePolicy {
  /** Failures (within `windowMs`) after which every further attempt waits. */
  delayAfter: number;
  /** The first wait in ms; it doubles with every further failure, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Failures within `windowMs` that lock the account or address. */
  lockAfter: number;
  /** How long a lockout lasts. */
  lockMs: number;
  /** Failures older than this are forgotten. */
  windowMs: number;
}

const MINUTE = 60_000;

/** Per account: a wait from the 3rd failure (1 s, doubling to 30 s), 10 failures lock 15 min. */
export const ACCOUNT_POLICY: ThrottlePolicy = {
  delayAfter: 3,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  lockAfter: 10,
  lockMs: 15 * MINUTE,
  windowMs: 15 * MINUTE,
};

/**
 * Per client address, more lenient (a utility's office shares one address): a wait from the
 * 10th failure, 30 failures lock the address for 15 min.
 */
export const ADDRESS_POLICY: ThrottlePolicy = {
  delayAfter: 10,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  lockAfter: 30,
  lockMs: 15 * MINUTE,
  windowMs: 15 * MINUTE,
};

export type ThrottleScope = "account" | "address";

/** Whether an attempt may go on, and if not, why and for how long. */
export type ThrottleVerdict =
  | { allowed: true }
  | {
    allowed: false;
    reason: "wait" | "locked";
    scope: ThrottleScope;
    /** Time until an attempt is allowed again, in ms. */
    retryAfterMs: number;
  };

interface Entry {
  /** Failure times (ms), oldest first, within the window. */
  failures: number[];
  /** End of the lockout (ms), or 0. */
  lockedUntil: number;
}

/** A map of at most `max` entries; when full, the longest untouched unlocked entry goes. */
class BoundedEntries {
  readonly #map = new Map<string, Entry>();
  constructor(private readonly max: number) {}

  get size(): number {
    return this.#map.size;
  }

  get(key: string): Entry | undefined {
    return this.#map.get(key);
  }

  /** Stores the entry as the most recently touched one. */
  touch(key: string, entry: Entry, now: number): void {
    this.#map.delete(key);
    if (this.#map.size >= this.max) this.#evict(now);
    this.#map.set(key, entry);
  }

  delete(key: string): void {
    this.#map.delete(key);
  }

  #evict(now: number): void {
    // Prefer an entry that is not locked, among the oldest few: an attacker spraying new
    // accounts or addresses must not push a lockout out of memory cheaply.
    let scanned = 0;
    for (const [key, entry] of this.#map) {
      if (entry.lockedUntil <= now) {
        this.#map.delete(key);
        return;
      }
      if (++scanned >= 256) break;
    }
    const oldest = this.#map.keys().next();
    if (!oldest.done) this.#map.delete(oldest.value);
  }
}

/** Options of {@link LoginThrottle}. */
export interface LoginThrottleOptions {
  account?: ThrottlePolicy;
  address?: ThrottlePolicy;
  /** Most entries kept per scope (default 10,000 each). */
  maxEntries?: number;
  /** The clock (tests inject one). */
  now?: () => number;
}

/** What a failure changed: the verdict for the next attempt and the scopes it just locked. */
export interface FailureOutcome {
  verdict: ThrottleVerdict;
  locked: ThrottleScope[];
  /** Failures of the account within the window, this one included (0 once it locked). */
  accountFailures: number;
}

/** Normalises a typed e-mail into the account key (the users module matches it the same way). */
export function accountKey(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * The address key: IPv4 as it is (an IPv4-mapped IPv6 address as its IPv4), IPv6 by its /64
 * prefix (one subscriber holds a whole /64).
 */
export function addressKey(address: string): string {
  const plain = address.trim().toLowerCase().replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(plain);
  if (mapped) return mapped[1]!;
  if (!plain.includes(":")) return plain;
  const [head = "", tail = ""] = plain.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = plain.includes("::")
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right]
    : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}

/** Failure counters and lockouts per account and per client address. */
export class LoginThrottle {
  readonly #policies: Record<ThrottleScope, ThrottlePolicy>;
  readonly #entries: Record<ThrottleScope, BoundedEntries>;
  readonly #now: () => number;

  constructor(options: LoginThrottleOptions = {}) {
    this.#policies = {
      account: options.account ?? ACCOUNT_POLICY,
      address: options.address ?? ADDRESS_POLICY,
    };
    const max = options.maxEntries ?? 10_000;
    this.#entries = { account: new BoundedEntries(max), address: new BoundedEntries(max) };
    this.#now = options.now ?? Date.now;
  }

  /** Entries held per scope (memory stays bounded). */
  size(scope: ThrottleScope): number {
    return this.#entries[scope].size;
  }

  /** May an attempt for this e-mail from this address (null: unknown) go on now? */
  check(email: string, address: string | null): ThrottleVerdict {
    const now = this.#now();
    const verdicts = this.#keys(email, address).map(([scope, key]) =>
      this.#verdict(scope, key, now)
    );
    return worst(verdicts);
  }

  /** Records a failed attempt (wrong e-mail or password). */
  fail(email: string, address: string | null): FailureOutcome {
    const now = this.#now();
    const locked: ThrottleScope[] = [];
    let accountFailures = 0;
    for (const [scope, key] of this.#keys(email, address)) {
      const policy = this.#policies[scope];
      const entries = this.#entries[scope];
      const entry = entries.get(key) ?? { failures: [], lockedUntil: 0 };
      if (entry.lockedUntil > now) continue;
      entry.failures = entry.failures.filter((t) => t > now - policy.windowMs);
      entry.failures.push(now);
      if (entry.failures.length >= policy.lockAfter) {
        entry.failures = [];
        entry.lockedUntil = now + policy.lockMs;
        locked.push(scope);
      }
      if (scope === "account") accountFailures = entry.failures.length;
      entries.touch(key, entry, now);
    }
    return { verdict: this.check(email, address), locked, accountFailures };
  }

  /** A successful login forgets the account's failures (not the address's: see the docs). */
  succeed(email: string): void {
    this.#entries.account.delete(accountKey(email));
  }

  /** Ends an account's lockout and forgets its failures (an administrator set a password). */
  clear(email: string): void {
    this.#entries.account.delete(accountKey(email));
  }

  #keys(email: string, address: string | null): [ThrottleScope, string][] {
    const keys: [ThrottleScope, string][] = [["account", accountKey(email)]];
    if (address) keys.push(["address", addressKey(address)]);
    return keys;
  }

  #verdict(scope: ThrottleScope, key: string, now: number): ThrottleVerdict {
    const entry = this.#entries[scope].get(key);
    if (!entry) return { allowed: true };
    if (entry.lockedUntil > now) {
      return { allowed: false, reason: "locked", scope, retryAfterMs: entry.lockedUntil - now };
    }
    const policy = this.#policies[scope];
    const recent = entry.failures.filter((t) => t > now - policy.windowMs);
    const last = recent.at(-1);
    if (last === undefined || recent.length < policy.delayAfter) return { allowed: true };
    const wait = Math.min(
      policy.maxDelayMs,
      policy.baseDelayMs * 2 ** (recent.length - policy.delayAfter),
    );
    const retryAfterMs = last + wait - now;
    return retryAfterMs > 0
      ? { allowed: false, reason: "wait", scope, retryAfterMs }
      : { allowed: true };
  }
}

/** The verdict that blocks longest (a lockout before a wait). */
function worst(verdicts: ThrottleVerdict[]): ThrottleVerdict {
  let result: ThrottleVerdict = { allowed: true };
  for (const v of verdicts) {
    if (v.allowed) continue;
    if (
      result.allowed || (v.reason === "locked" && result.reason === "wait") ||
      (v.reason === result.reason && v.retryAfterMs > result.retryAfterMs)
    ) result = v;
  }
  return result;
}
