/**
 * Cell onboarding calls, mounted at /gsm (docs/contracts.md, "Cell onboarding"): administrators
 * of hes:infrastructure-setup (and super-admins) register cells, import a CSV of serial numbers,
 * rotate and revoke credentials. Answers that carry a credential are never cached. Ids of
 * another customer answer the same 404 as unknown ids.
 */
import { type Context, Hono } from "hono";
import { type AppEnv, doc, requireApp, validate } from "../../../kernel/mod.ts";
import type { CellOnboardingService } from "./cell_onboarding.ts";
import type { CellsSetupService } from "./cells_setup.ts";
import {
  cellCredentialDto,
  importCellsInput,
  importedCellsDto,
  registerCellInput,
} from "../contract.ts";

const SETUP_KEY = "hes:infrastructure-setup";

/** A credential is shown once: no cache may keep the answer. */
function noStore(c: Context<AppEnv>): void {
  c.header("cache-control", "no-store");
}

/** Who did what to which cell, for the operator's log (never the credential). */
function audit(c: Context<AppEnv>, message: string, fields: Record<string, unknown>): void {
  const p = c.get("principal");
  c.get("logger").info(message, { ...fields, by: p.sub, customer: c.get("tenant").key });
}

/** Routes mounted at /gsm (behind authentication). */
export function cellOnboardingRoutes(
  { onboarding, setup }: { onboarding: CellOnboardingService; setup: CellsSetupService },
): Hono<AppEnv> {
  const admin = requireApp(SETUP_KEY, { admin: true });
  return new Hono<AppEnv>()
    .post(
      "/cells",
      admin,
      validate("json", registerCellInput),
      doc({
        summary: "Registers a cell; the answer is the only one carrying its credential",
        answer: cellCredentialDto,
        status: 201,
      }),
      async (c) => {
        const issued = await onboarding.register(c.get("tenant").key, c.req.valid("json"));
        audit(c, "Cell registered", { cellId: issued.cell_id, serial: issued.serial_number });
        noStore(c);
        return c.json(issued, 201);
      },
    )
    .post(
      "/cells/import",
      admin,
      validate("json", importCellsInput),
      doc({
        summary: "Registers every cell of a CSV of serial numbers, or none (400 by line)",
        answer: importedCellsDto,
        status: 201,
      }),
      async (c) => {
        const imported = await onboarding.importCsv(c.get("tenant").key, c.req.valid("json"));
        audit(c, "Cells imported", { count: imported.count });
        noStore(c);
        return c.json(imported, 201);
      },
    )
    .post(
      "/cells/:id/credential",
      admin,
      doc({
        summary: "Issues a new credential (the old one gets 401 at once)",
        answer: cellCredentialDto,
      }),
      async (c) => {
        const issued = await onboarding.rotate(c.get("tenant").key, c.req.param("id"));
        audit(c, "Cell credential rotated", { cellId: issued.cell_id });
        noStore(c);
        return c.json(issued);
      },
    )
    .delete(
      "/cells/:id/credential",
      admin,
      doc({ summary: "Revokes the cell's credential (401 at once, until a rotation)" }),
      async (c) => {
        const key = c.get("tenant").key;
        await onboarding.revoke(key, c.req.param("id"));
        audit(c, "Cell credential revoked", { cellId: c.req.param("id") });
        return c.json(await setup.get(key, c.req.param("id")));
      },
    );
}
