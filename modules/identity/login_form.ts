/**
 * The login form's submission: throttling (login_throttle.ts), the password check, the account
 * and e-mail domain checks, logs with the client address, and the page to answer. The provider
 * (provider.ts) finishes the interaction when the outcome is a login.
 */
import type { CustomersService } from "../customers/mod.ts";
import { type EventBus, type Logger, verifyPassword } from "../../kernel/mod.ts";
import type { LoginUser, UsersService } from "../users/mod.ts";
import { emailDomainAuthorized, subjectOf } from "./claims.ts";
import type { LoginLocked } from "./events.ts";
import { type LoginTexts, pickLanguage, renderLogin } from "./login_page.ts";
import type { LoginThrottle, ThrottleVerdict } from "./login_throttle.ts";

/** What a submission needs from the provider's dependencies. */
export interface LoginFormDeps {
  appName: string;
  users: Pick<UsersService, "findByEmail" | "recordLogin">;
  customers: Pick<CustomersService, "getByKey">;
  logger: Logger;
  throttle: LoginThrottle;
  /** Receives `identity.loginLocked`. */
  bus: Pick<EventBus, "publish">;
}

/** One POST of the login form. */
export interface LoginAttempt {
  form: URLSearchParams;
  /** The interaction page (`/oidc/interaction/<uid>`). */
  pageUrl: string;
  uiLocales: string | undefined;
  acceptLanguage: string | undefined;
  /** The client address (null when unknown). */
  address: string | null;
}

/** Either the page to answer or the account that logged in. */
export type LoginOutcome =
  | { kind: "page"; status: number; html: string; headers: Record<string, string> }
  | { kind: "login"; accountId: string };

type LoginError =
  & keyof LoginTexts
  & (
    | "invalidCredentials"
    | "domainNotAuthorized"
    | "accountDisabled"
    | "required"
    | "tooManyAttempts"
    | "accountLocked"
    | "addressLocked"
  );

type Refusal = Extract<ThrottleVerdict, { allowed: false }>;

// A valid Argon2id hash of a random string, used to equalize timing for unknown users.
const DUMMY_HASH =
  "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$Xb0vGJkG3nqd0uX0q9nbf7cT6s0c7r2c3oRk1bWQ9Wc";

/** Handles one submission of the login form. */
export async function submitLogin(
  deps: LoginFormDeps,
  attempt: LoginAttempt,
): Promise<LoginOutcome> {
  const { form, address } = attempt;
  const email = (form.get("email") ?? "").trim().slice(0, 320);
  const password = (form.get("password") ?? "").slice(0, 1024);
  const lang = pickLanguage(form.get("lang"), attempt.uiLocales, attempt.acceptLanguage);
  const page = (
    status: number,
    error: LoginError,
    errorParams: Record<string, number> = {},
    headers: Record<string, string> = {},
  ): LoginOutcome => ({
    kind: "page",
    status,
    headers,
    html: renderLogin({
      lang,
      action: `${attempt.pageUrl}/login`,
      pageUrl: attempt.pageUrl,
      appName: deps.appName,
      email,
      error,
      errorParams,
    }),
  });
  const refuse = (verdict: Refusal): LoginOutcome => {
    const seconds = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
    const error = verdict.reason === "wait"
      ? "tooManyAttempts"
      : verdict.scope === "account"
      ? "accountLocked"
      : "addressLocked";
    return page(429, error, { seconds, minutes: Math.ceil(seconds / 60) }, {
      "Retry-After": String(seconds),
    });
  };

  if (!email || !password) return page(401, "required");
  // Checked before the password: an attempt that must wait proves nothing, right or wrong.
  const verdict = deps.throttle.check(email, address);
  if (!verdict.allowed) {
    deps.logger.warn("Login refused: too many failures", {
      email,
      address,
      scope: verdict.scope,
      reason: verdict.reason,
      retryAfterMs: verdict.retryAfterMs,
    });
    return refuse(verdict);
  }
  const user = await deps.users.findByEmail(email);
  // Verify even for unknown users so response time does not reveal which e-mails exist.
  const ok = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
  if (!user || !ok) {
    const outcome = deps.throttle.fail(email, address);
    deps.logger.warn("Login failed", {
      email,
      userId: user?.user_id ?? null,
      address,
      reason: user ? "wrongPassword" : "unknownEmail",
      accountFailures: outcome.accountFailures,
    });
    if (outcome.locked.length === 0) return page(401, "invalidCredentials");
    await announceLockout(deps, outcome.locked, { email, address, user });
    return outcome.verdict.allowed ? page(401, "invalidCredentials") : refuse(outcome.verdict);
  }
  if (user.disabled) {
    deps.logger.warn("Login refused: account disabled", { userId: user.user_id, address });
    return page(401, "accountDisabled");
  }
  const customer = await deps.customers.getByKey(user.customer_key);
  if (!customer || !emailDomainAuthorized(user.email, customer.authorized_email_domains)) {
    deps.logger.warn("Login refused: e-mail domain", { userId: user.user_id, address });
    return page(401, "domainNotAuthorized");
  }
  deps.throttle.succeed(email);
  await deps.users.recordLogin(user.user_id);
  deps.logger.info("Login", { userId: user.user_id, address });
  return { kind: "login", accountId: subjectOf(user.user_id) };
}

/** Logs a lockout and, for an existing account, tells its administrators (notifications). */
async function announceLockout(
  deps: LoginFormDeps,
  scopes: readonly string[],
  attempt: { email: string; address: string | null; user: LoginUser | null },
): Promise<void> {
  const { email, address, user } = attempt;
  const verdict = deps.throttle.check(email, address);
  const at = new Date();
  const until = new Date(at.getTime() + (verdict.allowed ? 0 : verdict.retryAfterMs));
  deps.logger.warn("Login locked", {
    scopes,
    email,
    userId: user?.user_id ?? null,
    address,
    until: until.toISOString(),
  });
  if (!user || !scopes.includes("account")) return;
  const event: LoginLocked = {
    customerKey: user.customer_key,
    userId: user.user_id,
    email: user.email,
    at: at.toISOString(),
    until: until.toISOString(),
    address,
  };
  await deps.bus.publish("identity.loginLocked", event);
}
