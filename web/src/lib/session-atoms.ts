/** The signed-in session in jotai atoms: configuration, token claims, user and customer. */
import { atom, useAtomValue } from "jotai";
import type { AccessContext } from "./access.ts";
import type { TokenClaims } from "./claims.ts";
import type { AppConfig } from "./config.ts";
import type { CustomerDto as Customer } from "../../../modules/customers/contract.ts";
import type { CurrentUserDto as CurrentUser } from "../../../modules/users/contract.ts";

export const configAtom = atom<AppConfig | null>(null);
export const claimsAtom = atom<TokenClaims | null>(null);
export const currentUserAtom = atom<CurrentUser | null>(null);
/** Every customer the user may see (one, or all for super roles). */
export const customersAtom = atom<Customer[]>([]);
export const customerAtom = atom<Customer | null>(null);
/** True while the "Your session is about to end" dialog is open. */
export const sessionExpiringAtom = atom(false);

/** Everything the shell needs once the session is loaded. */
export interface Session {
  config: AppConfig;
  claims: TokenClaims;
  user: CurrentUser;
  customer: Customer;
}

export const sessionAtom = atom<Session | null>((get) => {
  const config = get(configAtom);
  const claims = get(claimsAtom);
  const user = get(currentUserAtom);
  const customer = get(customerAtom);
  return config && claims && user && customer ? { config, claims, user, customer } : null;
});

/** The inputs of the access guard for the current session. */
export const accessContextAtom = atom<AccessContext | null>((get) => {
  const session = get(sessionAtom);
  if (!session) return null;
  return {
    appsRoles: session.claims.appsRoles,
    defaultStartPageKey: session.config.defaultStartPageKey,
    appsOpenToAll: session.config.appsOpenToAll,
    customerApplications: session.customer.applications ?? [],
  };
});

/** The loaded session; only for components rendered inside the signed-in shell. */
export function useSession(): Session {
  const session = useAtomValue(sessionAtom);
  if (!session) throw new Error("Session is not loaded: useSession() is for the signed-in shell");
  return session;
}

/** The access context; only for components rendered inside the signed-in shell. */
export function useAccessContext(): AccessContext {
  const ctx = useAtomValue(accessContextAtom);
  if (!ctx) throw new Error("Session is not loaded: useAccessContext() is for the signed-in shell");
  return ctx;
}
