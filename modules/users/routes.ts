/** The usm calls of spec 7. */
import { Hono } from "hono";
import { z } from "zod";
import { type AppEnv, validate } from "../kernel/mod.ts";
import type { UsersService } from "./service.ts";

/** Resolves an auth connection name to its customer key (given by main.ts from customers). */
export type CustomerKeyOf = (authConnectionName: string) => Promise<string | null>;

/** The interface languages of spec 1. */
export const UI_LANGUAGES = ["en", "fr", "de", "uk"] as const;

const profilePatch = z.strictObject({ language: z.enum(UI_LANGUAGES) });

/** Routes mounted at /usm (behind authentication). */
export function userRoutes(service: UsersService, customerKeyOf: CustomerKeyOf): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .get("/users/current/:id", async (c) => {
      const principal = c.get("principal");
      const callerCustomer = await customerKeyOf(principal.customer);
      return c.json(await service.current(principal, c.req.param("id"), callerCustomer));
    })
    .patch("/users/current/:id", validate("json", profilePatch), async (c) => {
      const principal = c.get("principal");
      const callerCustomer = await customerKeyOf(principal.customer);
      const { language } = c.req.valid("json");
      return c.json(
        await service.updateOwnLanguage(principal, c.req.param("id"), callerCustomer, language),
      );
    });
}
