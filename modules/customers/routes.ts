/** The csm calls of spec 7. */
import { Hono } from "hono";
import type { AppEnv } from "../kernel/mod.ts";
import type { CustomersService } from "./service.ts";

/** Routes mounted at /csm (behind authentication). */
export function customerRoutes(service: CustomersService): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .get("/customers", async (c) => c.json(await service.listFor(c.get("principal"))))
    .get(
      "/customers/:cid",
      async (c) => c.json(await service.getFor(c.get("principal"), c.req.param("cid"))),
    );
}
