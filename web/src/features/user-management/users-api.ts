/** The user-management calls (docs/contracts.md, "User calls") and the form's draft. */
import { api } from "../../lib/api.ts";
import type {
  ManagedUserDto as ManagedUser,
  Role,
  UserPageDto as UserPage,
} from "../../../../modules/users/contract.ts";

/** A user as the management calls return it, and one page of `GET /usm/users`. */
export type { ManagedUser, UserPage };

/** What the user form edits. */
export interface UserDraft {
  name: string;
  email: string;
  phone: string;
  role: Role;
  start_page: string | null;
  language: string;
  apps_roles: string[];
  /** A wall display that stays signed in (modules/users/contract.ts kioskAllowed). */
  kiosk: boolean;
  password: string;
  password_confirmation: string;
}

/** An empty draft for a new user of a customer. */
export function emptyDraft(language: string): UserDraft {
  return {
    name: "",
    email: "",
    phone: "",
    role: "user",
    start_page: null,
    language,
    apps_roles: ["hes:default"],
    kiosk: false,
    password: "",
    password_confirmation: "",
  };
}

/** The draft of an existing user (no password: it is only set when typed). */
export function draftOf(user: ManagedUser): UserDraft {
  return {
    name: user.name,
    email: user.email,
    phone: user.phone ?? "",
    role: user.role,
    start_page: user.start_page,
    language: user.language,
    apps_roles: user.apps_roles,
    kiosk: user.kiosk,
    password: "",
    password_confirmation: "",
  };
}

function body(draft: UserDraft) {
  const password = draft.password
    ? { password: draft.password, password_confirmation: draft.password_confirmation }
    : {};
  return {
    name: draft.name.trim(),
    email: draft.email.trim(),
    phone: draft.phone.trim() || null,
    role: draft.role,
    start_page: draft.start_page,
    language: draft.language,
    apps_roles: draft.apps_roles,
    kiosk: draft.kiosk,
    ...password,
  };
}

const userPath = (cid: string, id: string) =>
  `/usm/users/${encodeURIComponent(cid)}/${encodeURIComponent(id)}`;

/** The user-management calls; screens show their errors themselves. */
export const usersApi = {
  list: (query: { customer: string; search: string; page: number }, signal?: AbortSignal) =>
    api.get<UserPage>("/usm/users", {
      query: { customer: query.customer, search: query.search || undefined, page: query.page },
      ...(signal ? { signal } : {}),
    }),
  get: (cid: string, id: string, signal?: AbortSignal) =>
    api.get<ManagedUser>(userPath(cid, id), signal ? { signal } : {}),
  create: (customer: string, draft: UserDraft) =>
    api.post<ManagedUser>("/usm/users", { ...body(draft), customer_key: customer }, {
      handleErrors: true,
    }),
  update: (cid: string, id: string, draft: UserDraft) =>
    api.put<ManagedUser>(userPath(cid, id), body(draft), { handleErrors: true }),
  setDisabled: (cid: string, id: string, disabled: boolean) =>
    api.post<ManagedUser>(`${userPath(cid, id)}/${disabled ? "disable" : "enable"}`, undefined, {
      handleErrors: true,
    }),
  remove: (cid: string, id: string) => api.delete<void>(userPath(cid, id), { handleErrors: true }),
};
