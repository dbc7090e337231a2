/** The usm calls: the current user's profile (spec 7) and user management (docs/contracts.md). */
import { type Context, Hono } from "hono";
import { z } from "zod";
import { type AppEnv, requireApp, ROLES, validate } from "../../kernel/mod.ts";
import { PASSWORD_MAX_LENGTH } from "./password_policy.ts";
import { EMAIL_VALIDATION_RETURN, type ProfileService } from "./profile.ts";
import { isAllowedName, isAppsRolesEntry, UI_LANGUAGES } from "./rules.ts";
import type { UsersService } from "./service.ts";

export { UI_LANGUAGES } from "./rules.ts";

const name = z.string().trim().min(3, "validation.nameMin").max(60, "validation.nameMax")
  .refine(isAllowedName, "validation.forbiddenChars");
const phone = z.string().trim().max(32, "validation.phoneInvalid").nullable()
  .transform((p) => p || null);
const startPage = z.string().max(200).nullable();
const password = z.string().min(1, "validation.required").max(
  PASSWORD_MAX_LENGTH,
  "validation.passwordRules",
);

const userFields = {
  name,
  email: z.string().trim().max(254, "validation.emailInvalid").pipe(
    z.email("validation.emailInvalid"),
  ),
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
};
const newUser = z.strictObject({
  ...userFields,
  customer_key: z.string().max(64).optional(),
  password,
  password_confirmation: z.string().max(PASSWORD_MAX_LENGTH).optional(),
});
const userUpdate = z.strictObject({
  ...userFields,
  password: password.optional(),
  password_confirmation: z.string().max(PASSWORD_MAX_LENGTH).optional(),
});
const listQuery = z.object({
  customer: z.string().max(64).optional(),
  search: z.string().max(100).optional(),
  page: z.coerce.number().int().min(1).max(100_000).optional(),
});
const channel = z.strictObject({ web: z.boolean(), email: z.boolean() });
const notification = z.strictObject({
  apps: z.record(z.string().regex(/^[a-z][\w:-]{0,63}$/), z.union([z.boolean(), channel]))
    .refine((apps) => Object.keys(apps).length <= 32),
  email: z.boolean(),
});
const profilePatch = z.strictObject({
  name: name.optional(),
  phone: phone.optional(),
  language: z.enum(UI_LANGUAGES).optional(),
  start_page: startPage.optional(),
  notification: notification.optional(),
}).refine((patch) => Object.keys(patch).length > 0, "validation.required");
const passwordChange = z.strictObject({
  current_password: z.string().min(1, "validation.required").max(PASSWORD_MAX_LENGTH),
  password,
  password_confirmation: z.string().max(PASSWORD_MAX_LENGTH).optional(),
});

/** The public e-mail validation link (mounted before authentication: it comes from a mail). */
export function emailValidationRoutes(profiles: ProfileService): Hono<AppEnv> {
  return new Hono<AppEnv>().get("/email-validation/:token", async (c) => {
    const ok = await profiles.confirmEmail(c.req.param("token"));
    c.header("Cache-Control", "no-store");
    return c.redirect(
      `${EMAIL_VALIDATION_RETURN}?email-validation=${
        ok ? "done" : "invalid"
      }#notification-settings`,
      302,
    );
  });
}

/** Routes mounted at /usm (behind authentication). */
export function userRoutes(service: UsersService, profiles: ProfileService): Hono<AppEnv> {
  const manage = requireApp("hes:um", { admin: true });
  // A user's own record lives in their own customer, whichever customer a super role acts on.
  const caller = (c: Context<AppEnv>) => ({
    principal: c.get("principal"),
    customerKey: c.get("homeTenant").key,
  });
  return new Hono<AppEnv>()
    .get("/users/current/:id", async (c) => {
      const { principal, customerKey } = caller(c);
      return c.json(await service.current(principal, c.req.param("id"), customerKey));
    })
    .patch("/users/current/:id", validate("json", profilePatch), async (c) => {
      const { principal, customerKey } = caller(c);
      const patch = c.req.valid("json");
      return c.json(await profiles.update(principal, c.req.param("id"), customerKey, patch));
    })
    .post("/users/current/:id/password", validate("json", passwordChange), async (c) => {
      const { principal, customerKey } = caller(c);
      const change = c.req.valid("json");
      await profiles.changePassword(principal, c.req.param("id"), customerKey, change);
      return c.body(null, 204);
    })
    .post("/users/current/:id/email-validation", async (c) => {
      const { principal, customerKey } = caller(c);
      const sent = await profiles.requestEmailValidation(principal, c.req.param("id"), customerKey);
      return c.json(sent, 202);
    })
    .get("/users", manage, validate("query", listQuery), async (c) => {
      return c.json(await service.list(caller(c), c.req.valid("query")));
    })
    .post("/users", manage, validate("json", newUser), async (c) => {
      const { customer_key, password, password_confirmation, ...fields } = c.req.valid("json");
      const created = await service.createManaged(
        caller(c),
        customer_key,
        fields,
        { password, password_confirmation },
      );
      return c.json(created, 201);
    })
    .get("/users/:cid/:id", manage, async (c) => {
      const { cid, id } = c.req.param();
      return c.json(await service.get(caller(c), cid, id));
    })
    .put("/users/:cid/:id", manage, validate("json", userUpdate), async (c) => {
      const { cid, id } = c.req.param();
      const { password, password_confirmation, ...fields } = c.req.valid("json");
      const pw = password === undefined ? undefined : { password, password_confirmation };
      return c.json(await service.update(caller(c), cid, id, fields, pw));
    })
    .post("/users/:cid/:id/disable", manage, async (c) => {
      const { cid, id } = c.req.param();
      return c.json(await service.setDisabled(caller(c), cid, id, true));
    })
    .post("/users/:cid/:id/enable", manage, async (c) => {
      const { cid, id } = c.req.param();
      return c.json(await service.setDisabled(caller(c), cid, id, false));
    })
    // Registered last: the authorization matrix walks routes in this order and deletes a user.
    .delete("/users/:cid/:id", manage, async (c) => {
      const { cid, id } = c.req.param();
      await service.remove(caller(c), cid, id);
      return c.body(null, 204);
    });
}
