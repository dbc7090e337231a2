/** The usm calls: the current user's profile (spec 7) and user management (docs/contracts.md). */
import { type Context, Hono } from "hono";
import { type AppEnv, doc, requireApp, validate } from "../../kernel/mod.ts";
import {
  currentUserDto,
  emailValidationSentDto,
  managedUserDto,
  newUserInput,
  passwordChange,
  profilePatch,
  userListQuery,
  userPageDto,
  userUpdateInput,
} from "./contract.ts";
import { EMAIL_VALIDATION_RETURN, type ProfileService } from "./profile.ts";
import type { UsersService } from "./service.ts";

/** The public e-mail validation link (mounted before authentication: it comes from a mail). */
export function emailValidationRoutes(profiles: ProfileService): Hono<AppEnv> {
  return new Hono<AppEnv>().get(
    "/email-validation/:token",
    doc({
      summary: "Confirms an e-mail address (link of a validation mail), then 302",
      status: 302,
    }),
    async (c) => {
      const ok = await profiles.confirmEmail(c.req.param("token"));
      c.header("Cache-Control", "no-store");
      return c.redirect(
        `${EMAIL_VALIDATION_RETURN}?email-validation=${
          ok ? "done" : "invalid"
        }#notification-settings`,
        302,
      );
    },
  );
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
    .get(
      "/users/current/:id",
      doc({ summary: "The caller's own profile (spec 7)", answer: currentUserDto }),
      async (c) => {
        const { principal, customerKey } = caller(c);
        return c.json(await service.current(principal, c.req.param("id"), customerKey));
      },
    )
    .patch(
      "/users/current/:id",
      validate("json", profilePatch),
      doc({ summary: "Changes the caller's own profile", answer: currentUserDto }),
      async (c) => {
        const { principal, customerKey } = caller(c);
        const patch = c.req.valid("json");
        return c.json(await profiles.update(principal, c.req.param("id"), customerKey, patch));
      },
    )
    .post(
      "/users/current/:id/password",
      validate("json", passwordChange),
      doc({ summary: "Changes the caller's password", status: 204 }),
      async (c) => {
        const { principal, customerKey } = caller(c);
        const change = c.req.valid("json");
        await profiles.changePassword(principal, c.req.param("id"), customerKey, change);
        return c.body(null, 204);
      },
    )
    .post(
      "/users/current/:id/email-validation",
      doc({ summary: "Sends a validation link", answer: emailValidationSentDto, status: 202 }),
      async (c) => {
        const { principal, customerKey } = caller(c);
        const sent = await profiles.requestEmailValidation(
          principal,
          c.req.param("id"),
          customerKey,
        );
        return c.json(sent, 202);
      },
    )
    .get(
      "/users",
      manage,
      validate("query", userListQuery),
      doc({ summary: "One page of a customer's users", answer: userPageDto }),
      async (c) => {
        return c.json(await service.list(caller(c), c.req.valid("query")));
      },
    )
    .post(
      "/users",
      manage,
      validate("json", newUserInput),
      doc({ summary: "Creates a user", answer: managedUserDto, status: 201 }),
      async (c) => {
        const { customer_key, password, password_confirmation, ...fields } = c.req.valid("json");
        const created = await service.createManaged(
          caller(c),
          customer_key,
          fields,
          { password, password_confirmation },
        );
        return c.json(created, 201);
      },
    )
    .get(
      "/users/:cid/:id",
      manage,
      doc({ summary: "One user of a customer", answer: managedUserDto }),
      async (c) => {
        const { cid, id } = c.req.param();
        return c.json(await service.get(caller(c), cid, id));
      },
    )
    .put(
      "/users/:cid/:id",
      manage,
      validate("json", userUpdateInput),
      doc({ summary: "Replaces a user's fields", answer: managedUserDto }),
      async (c) => {
        const { cid, id } = c.req.param();
        const { password, password_confirmation, ...fields } = c.req.valid("json");
        const pw = password === undefined ? undefined : { password, password_confirmation };
        return c.json(await service.update(caller(c), cid, id, fields, pw));
      },
    )
    .post(
      "/users/:cid/:id/disable",
      manage,
      doc({ summary: "Disables a user (no login)", answer: managedUserDto }),
      async (c) => {
        const { cid, id } = c.req.param();
        return c.json(await service.setDisabled(caller(c), cid, id, true));
      },
    )
    .post(
      "/users/:cid/:id/enable",
      manage,
      doc({ summary: "Enables a user", answer: managedUserDto }),
      async (c) => {
        const { cid, id } = c.req.param();
        return c.json(await service.setDisabled(caller(c), cid, id, false));
      },
    )
    // Registered last: the authorization matrix walks routes in this order and deletes a user.
    .delete(
      "/users/:cid/:id",
      manage,
      doc({ summary: "Deletes a user", status: 204 }),
      async (c) => {
        const { cid, id } = c.req.param();
        await service.remove(caller(c), cid, id);
        return c.body(null, 204);
      },
    );
}
