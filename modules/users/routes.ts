/** The usm calls of spec 7. */
import { Hono } from "hono";
import type { AppEnv } from "../kernel/mod.ts";
import type { UsersService } from "./service.ts";

/** Resolves an auth connection name to its customer key (given by main.ts from customers). */
export type CustomerKeyOf = (authConnectionName: string) => Promise<string | null>;

/** Routes mounted at /usm (behind authentication). */
export function userRoutes(service: UsersService, customerKeyOf: CustomerKeyOf): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .get("/users/current/:id", async (c) => {
      const principal = c.get("principal");
      const callerCustomer = await customerKeyOf(principal.customer);
      return c.json(await service.current(principal, c.req.param("id"), callerCustomer));
    });
}
