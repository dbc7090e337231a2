/** OIDC sign-in with oidc-client-ts (spec 2.9): code flow with PKCE, no automatic renewal. */
import { UserManager, WebStorageStateStore } from "oidc-client-ts";
import type { AppConfig } from "./config.ts";
import { CUSTOMER_IDS_STORAGE_KEY } from "./customer.ts";
import { CALLBACK_PATH } from "./return-path.ts";

/** Creates the user manager from the public configuration. */
export function createUserManager(config: AppConfig, origin: string = window.location.origin) {
  return new UserManager({
    authority: config.oidc.authority,
    client_id: config.oidc.clientId,
    scope: config.oidc.scope,
    response_type: "code",
    prompt: "login",
    redirect_uri: `${origin}${CALLBACK_PATH}`,
    post_logout_redirect_uri: `${origin}/`,
    automaticSilentRenew: false,
    userStore: new WebStorageStateStore({ store: window.sessionStorage }),
  });
}

function removeKeys(storage: Storage, matches: (key: string) => boolean): void {
  const keys: string[] = [];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (key !== null && matches(key)) keys.push(key);
  }
  for (const key of keys) storage.removeItem(key);
}

/** Clears the stored customer ids and every oidc-client-ts entry (user and sign-in state). */
export function clearSessionEntries(): void {
  const isSessionKey = (key: string) => key === CUSTOMER_IDS_STORAGE_KEY || key.startsWith("oidc.");
  try {
    removeKeys(window.sessionStorage, isSessionKey);
    removeKeys(window.localStorage, (key) => key.startsWith("oidc."));
  } catch {
    // Storage can be unavailable in private modes; nothing to clear then.
  }
}

/** The current location as a path, to return to after sign-in. */
export function currentPath(): string {
  const { pathname, search, hash } = window.location;
  return `${pathname}${search}${hash}`;
}
