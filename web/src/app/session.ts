/**
 * Sign-in and session lifecycle (spec 2.9 and 7): configuration, OIDC login and callback,
 * current user and customer, token expiry, renewal and logout.
 */
import type { User, UserManager } from "oidc-client-ts";
import { setUiLanguage } from "../i18n/i18n.ts";
import { api, ApiError, configureApi } from "../lib/api.ts";
import { errorPageFor } from "../lib/api-errors.ts";
import { clearSessionEntries, createUserManager, currentPath } from "../lib/auth.ts";
import { isSuperRole, readClaims, type TokenClaims } from "../lib/claims.ts";
import { type AppConfig, parseConfig } from "../lib/config.ts";
import { selectCustomer } from "../lib/customer.ts";
import { readStoredCustomerIds, storeSelectedCustomer } from "../lib/customer-storage.ts";
import { resolveLanguage } from "../lib/language.ts";
import { CALLBACK_PATH, returnPathFromState } from "../lib/return-path.ts";
import {
  claimsAtom,
  configAtom,
  currentUserAtom,
  customerAtom,
  customersAtom,
  sessionExpiringAtom,
} from "../lib/session-atoms.ts";
import type { CustomerDto as Customer } from "../../../modules/customers/contract.ts";
import type { CurrentUserDto as CurrentUser } from "../../../modules/users/contract.ts";
import type { AppStore } from "./store.ts";

/** How the boot ended. */
export type BootOutcome =
  | { kind: "ready" }
  /** A foundation call failed; the URL already shows the error page. */
  | { kind: "session-failed" }
  | { kind: "redirecting" }
  | { kind: "config-failed" }
  | { kind: "sign-in-failed" }
  /** Opened on another address than PUBLIC_URL, where the sign-in cannot work. */
  | { kind: "wrong-address"; publicUrl: string };

let userManager: UserManager | null = null;
let oidcUser: User | null = null;
let ending = false;

async function fetchConfig(): Promise<AppConfig> {
  const response = await fetch("/config.json", { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`Cannot load /config.json: HTTP ${response.status}`);
  return parseConfig(await response.json());
}

function originOf(url: string): string | null {
  try {
    return url ? new URL(url).origin : null;
  } catch {
    return null;
  }
}

/** Starts the identity provider login, remembering where to come back. */
export async function signIn(returnTo: string = currentPath()): Promise<void> {
  if (!userManager) return;
  await userManager.signinRedirect({ state: { returnTo } });
}

/**
 * Ends the session: clears the stored customer ids and the oidc-client-ts entries, then logs
 * out at the identity provider, which returns to the site origin.
 */
export async function endSession(): Promise<void> {
  if (ending) return;
  ending = true;
  const idToken = oidcUser?.id_token;
  clearSessionEntries();
  try {
    if (!userManager) throw new Error("No user manager");
    await userManager.signoutRedirect({
      id_token_hint: idToken,
      post_logout_redirect_uri: `${window.location.origin}/`,
    });
  } catch {
    // Identity provider unreachable: the local session is already gone.
    window.location.assign("/");
  }
}

/** Continue in the expiry dialog: renews the tokens silently with the refresh token. */
export async function renewSession(store: AppStore): Promise<void> {
  try {
    const renewed = await userManager?.signinSilent();
    if (!renewed) throw new Error("Silent renewal returned no user");
    oidcUser = renewed;
    store.set(sessionExpiringAtom, false);
  } catch {
    store.set(sessionExpiringAtom, false);
    await endSession();
  }
}

function watchTokens(manager: UserManager, store: AppStore): void {
  manager.events.addUserLoaded((user) => {
    oidcUser = user;
  });
  // A kiosk (a wall display) renews on its own; anyone else is asked.
  manager.events.addAccessTokenExpiring(() =>
    store.get(currentUserAtom)?.kiosk
      ? void renewSession(store)
      : store.set(sessionExpiringAtom, true)
  );
  manager.events.addAccessTokenExpired(() => void endSession());
  manager.events.addSilentRenewError(() => void endSession());
  manager.events.addUserSignedOut(() => void endSession());
}

async function authenticate(manager: UserManager): Promise<User | "redirecting" | "failed"> {
  if (window.location.pathname === CALLBACK_PATH) {
    try {
      const user = await manager.signinRedirectCallback();
      window.history.replaceState(null, "", returnPathFromState(user.state));
      return user;
    } catch {
      return "failed";
    }
  }
  const user = await manager.getUser();
  if (user && !user.expired) return user;
  await manager.signinRedirect({ state: { returnTo: currentPath() } });
  return "redirecting";
}

async function loadFoundation(claims: TokenClaims): Promise<[CurrentUser, Customer[]]> {
  return await Promise.all([
    api.get<CurrentUser>(`/usm/users/current/${encodeURIComponent(claims.userId)}`),
    api.get<Customer[]>("/csm/customers"),
  ]);
}

/** Runs the whole boot: configuration, sign-in, current user and customer. */
export async function boot(store: AppStore): Promise<BootOutcome> {
  let config: AppConfig;
  try {
    config = await fetchConfig();
  } catch {
    return { kind: "config-failed" };
  }
  const publicOrigin = originOf(config.publicUrl);
  if (publicOrigin && publicOrigin !== window.location.origin && !config.apiBaseUrl) {
    return { kind: "wrong-address", publicUrl: config.publicUrl };
  }
  store.set(configAtom, config);
  const manager = createUserManager(config);
  userManager = manager;

  let authenticated: Awaited<ReturnType<typeof authenticate>>;
  try {
    authenticated = await authenticate(manager);
  } catch {
    return { kind: "config-failed" };
  }
  if (authenticated === "redirecting") return { kind: "redirecting" };
  if (authenticated === "failed") return { kind: "sign-in-failed" };
  oidcUser = authenticated;
  watchTokens(manager, store);

  const claims = readClaims(authenticated.profile as Record<string, unknown>);
  store.set(claimsAtom, claims);
  configureApi({
    baseUrl: config.apiBaseUrl,
    getAccessToken: () => oidcUser?.access_token ?? null,
    getCustomerKey: () => store.get(customerAtom)?.key ?? null,
    // Until the router exists, error pages are reached by rewriting the URL.
    showErrorPage: (href) => window.history.replaceState(null, "", href),
    onUnauthorized: () => void endSession(),
  });

  let user: CurrentUser;
  let customers: Customer[];
  try {
    [user, customers] = await loadFoundation(claims);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return { kind: "redirecting" };
    return { kind: "session-failed" };
  }
  const superRole = isSuperRole(user.role ?? claims.role);
  const customer = selectCustomer(customers, {
    connectionName: claims.customer,
    isSuper: superRole,
    storedIds: readStoredCustomerIds(),
  });
  if (!customer) {
    window.history.replaceState(null, "", `${errorPageFor(404)}?type=api`);
    return { kind: "session-failed" };
  }
  if (superRole) storeSelectedCustomer(customer.key);
  store.set(currentUserAtom, user);
  store.set(customersAtom, customers);
  store.set(customerAtom, customer);
  await setUiLanguage(
    // The stored profile is fresher than the token, which keeps the language of the login.
    resolveLanguage([user.language, claims.language, customer.default_language]),
  );
  return { kind: "ready" };
}

/** Used by the router once it exists: API errors then navigate inside the app. */
export function routeApiErrors(navigate: (href: string) => void): void {
  configureApi({ showErrorPage: navigate });
}
