/**
 * The users contract (usm): roles, module keys, the profile and user-management inputs and
 * answers, shared with the web app (types with `import type`). Pure: imports only zod.
 */
import { z } from "zod";

/** User roles of spec 6, lowest first (the kernel's authorization uses the same list). */
export const ROLES = ["user", "admin", "super-user", "super-admin"] as const;
export type Role = (typeof ROLES)[number];

/** The interface languages of spec 1. */
export const UI_LANGUAGES = ["en", "fr", "de", "uk"] as const;
/** Users per page of the user list (spec 9). */
export const USERS_PAGE_SIZE = 17;
/** Roles per module key: the last segment of an apps_roles entry. */
export const APP_ROLES = ["user", "admin"] as const;
export type AppRole = (typeof APP_ROLES)[number];
/** The default auth role every user holds (spec 6). */
export const DEFAULT_APP_ROLE = "hes:default";
/** Full names: 3 to 60 characters (spec 5). */
export const NAME_LIMITS = { min: 3, max: 60 } as const;
/** Characters not allowed in names (spec 5). */
export const FORBIDDEN_NAME_CHARACTERS = /[:<>"/\\|?*!]/;
/** Shortest accepted password (spec 5). */
export const PASSWORD_MIN_LENGTH = 8;
/** Longest accepted password: keeps the estimator and the hash fast. */
export const PASSWORD_MAX_LENGTH = 128;

/** The module keys access can be granted for (docs/contracts.md, "Module keys"). */
export const MODULE_KEYS = [
  "hes:data-export",
  "hes:infrastructure-setup",
  "hes:io-configuration",
  "hes:scada-connector",
  "hes:um",
  "hes:cm",
  "hes:api-clients",
  "app:grid-metering",
  "app:grid-monitoring",
  "app:visual-statistics",
  "app:power-quality",
  "app:io-monitoring",
] as const;

/**
 * Whether a user may be a kiosk (a wall display that stays signed in, without the inactivity
 * dialog): the role `user` with no module's admin rights, so that an unattended screen can
 * change nothing.
 */
export function kioskAllowed(role: Role, appsRoles: readonly string[]): boolean {
  return role === "user" && !appsRoles.some((entry) => entry.endsWith(":admin"));
}

/** True when a name has none of the forbidden characters of spec 5. */
export function isAllowedName(name: string): boolean {
  return !FORBIDDEN_NAME_CHARACTERS.test(name);
}

/** True for `hes:default` and `<module key>:<user|admin>`. */
export function isAppsRolesEntry(entry: string): boolean {
  if (entry === DEFAULT_APP_ROLE) return true;
  const colon = entry.lastIndexOf(":");
  return (MODULE_KEYS as readonly string[]).includes(entry.slice(0, colon)) &&
    (APP_ROLES as readonly string[]).includes(entry.slice(colon + 1));
}

const name = z.string().trim().min(NAME_LIMITS.min, "validation.nameMin")
  .max(NAME_LIMITS.max, "validation.nameMax")
  .refine(isAllowedName, "validation.forbiddenChars");
const phone = z.string().trim().max(32, "validation.phoneInvalid").nullable()
  .transform((p) => p || null);
const startPage = z.string().max(200).nullable();
const password = z.string().min(1, "validation.required")
  .max(PASSWORD_MAX_LENGTH, "validation.passwordRules");
const confirmation = z.string().max(PASSWORD_MAX_LENGTH).optional();

const userFields = {
  name,
  email: z.string().trim().max(254, "validation.emailInvalid")
    .pipe(z.email("validation.emailInvalid")),
  phone,
  role: z.enum(ROLES),
  start_page: startPage,
  language: z.enum(UI_LANGUAGES),
  apps_roles: z.array(z.string().refine(isAppsRolesEntry, "validation.moduleAccess")).max(64)
    .refine(
      (entries) =>
        new Set(entries.map((e) => e.slice(0, e.lastIndexOf(":")))).size === entries.length,
      "validation.moduleAccess",
    ),
  /** A kiosk (see kioskAllowed); absent: false for a new user, unchanged on an update. */
  kiosk: z.boolean().optional(),
};

/** `POST /usm/users`: a new user of the customer (the caller's own when `customer_key` is absent). */
export const newUserInput = z.strictObject({
  ...userFields,
  customer_key: z.string().max(64).optional(),
  password,
  password_confirmation: confirmation,
}).meta({ id: "NewUserInput" });
export type NewUserInput = z.output<typeof newUserInput>;

/** `PUT /usm/users/{cid}/{id}`: the editable fields, and a new password when typed. */
export const userUpdateInput = z.strictObject({
  ...userFields,
  password: password.optional(),
  password_confirmation: confirmation,
}).meta({ id: "UserUpdateInput" });
export type UserUpdateInput = z.output<typeof userUpdateInput>;

/** `GET /usm/users`: one page of a customer's users, searched by name or e-mail. */
export const userListQuery = z.object({
  customer: z.string().max(64).optional(),
  search: z.string().max(100).optional(),
  page: z.coerce.number().int().min(1).max(100_000).optional(),
});
export type UserListQuery = z.output<typeof userListQuery>;

const channels = z.strictObject({ web: z.boolean(), email: z.boolean() });

/** user_metadata.notification: per app on/off or per channel, and the e-mail master switch. */
export const notificationSettings = z.strictObject({
  apps: z.record(z.string().regex(/^[a-z][\w:-]{0,63}$/), z.union([z.boolean(), channels]))
    .refine((apps) => Object.keys(apps).length <= 32),
  email: z.boolean(),
}).meta({ id: "NotificationSettings" });
export type NotificationSettings = z.output<typeof notificationSettings>;
/** Notification choice per app: on/off, or per channel. */
export type AppNotification = NotificationSettings["apps"][string];

/** `PATCH /usm/users/current/{id}`: the fields a user changes in their own profile. */
export const profilePatch = z.strictObject({
  name: name.optional(),
  phone: phone.optional(),
  language: z.enum(UI_LANGUAGES).optional(),
  start_page: startPage.optional(),
  notification: notificationSettings.optional(),
}).refine((patch) => Object.keys(patch).length > 0, "validation.required")
  .meta({ id: "ProfilePatch" });
export type ProfilePatch = z.output<typeof profilePatch>;

/** `POST /usm/users/current/{id}/password`. */
export const passwordChange = z.strictObject({
  current_password: z.string().min(1, "validation.required").max(PASSWORD_MAX_LENGTH),
  password,
  password_confirmation: confirmation,
}).meta({ id: "PasswordChange" });
export type PasswordChange = z.output<typeof passwordChange>;

/** The current user as `GET /usm/users/current/{id}` answers it. */
export const currentUserDto = z.object({
  user_id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  role: z.enum(ROLES),
  start_page: z.string().nullable(),
  language: z.string(),
  apps_roles: z.array(z.string()),
  customer_key: z.string(),
  user_metadata: z.record(z.string(), z.unknown()),
  app_metadata: z.record(z.string(), z.unknown()),
  latest_login: z.string().nullable(),
  /** The e-mail was confirmed through a validation link (needed for e-mail notifications). */
  email_validated: z.boolean(),
  /** A kiosk: the web app renews its session instead of asking after inactivity. */
  kiosk: z.boolean(),
}).meta({ id: "CurrentUserDto" });
export type CurrentUserDto = z.output<typeof currentUserDto>;

/** A user as user management lists and edits it. */
export const managedUserDto = currentUserDto.extend({
  disabled: z.boolean(),
  created_at: z.string(),
}).meta({ id: "ManagedUserDto" });
export type ManagedUserDto = z.output<typeof managedUserDto>;

/** One page of `GET /usm/users` (17 users). */
export const userPageDto = z.object({
  items: z.array(managedUserDto),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
}).meta({ id: "UserPageDto" });
export type UserPageDto = z.output<typeof userPageDto>;

/** `POST /usm/users/current/{id}/email-validation` (202): where the link went, until when. */
export const emailValidationSentDto = z.object({
  email: z.string(),
  expires_at: z.string(),
}).meta({ id: "EmailValidationSentDto" });
export type EmailValidationSentDto = z.output<typeof emailValidationSentDto>;
