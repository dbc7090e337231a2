/**
 * The demo's powered field cells that are not configured yet (waiting for installation, GPS and
 * GSM known) poll their configuration like real cells do (docs/cell-configuration.md) and
 * acknowledge each mapping version they receive. They therefore stay connected, so an
 * administrator can link them to a node and map them in the running demo (code 301 otherwise).
 */
import type { CellOnboardingService, CellsService } from "../grid/mod.ts";
import type { Logger } from "../../kernel/mod.ts";
import { DEMO_CUSTOMER } from "./mod.ts";

/** What the poller needs. */
export interface FieldCellDeps {
  cells: CellsService;
  /** Issues their credentials at start (a rotation, as an administrator would do it). */
  onboarding: CellOnboardingService;
  customerKeyOf(authConnectionName: string): Promise<string | null>;
  logger: Logger;
  /** Where the platform listens (the cells talk HTTP to it like real devices). */
  baseUrl: string;
  intervalMs?: number;
}

/** Starts polling; the returned function stops it. */
export async function startFieldCellPolling(deps: FieldCellDeps): Promise<() => Promise<void>> {
  const customerKey = await deps.customerKeyOf(DEMO_CUSTOMER);
  if (!customerKey) return () => Promise.resolve();
  const field = (await deps.cells.listFor(customerKey, "WAITING_FOR_INSTALLATION"))
    .filter((cell) => cell.gps_fix !== null && !cell.revoked);
  const credentials = new Map<string, string>();
  /** The mapping version each cell applied last (a real cell acknowledges once). */
  const applied = new Map<string, number>();
  for (const cell of field) {
    credentials.set(cell.id, (await deps.onboarding.rotate(customerKey, cell.id)).credential);
  }

  const pollOnce = async () => {
    for (const [cellId, credential] of credentials) {
      const headers = { authorization: `Bearer ${credential}` };
      try {
        const response = await fetch(`${deps.baseUrl}/ingest/v1/configuration`, { headers });
        if (!response.ok) {
          await response.body?.cancel();
          continue;
        }
        const config = await response.json() as { mapping_version: number };
        if (config.mapping_version === (applied.get(cellId) ?? 0)) continue;
        const ack = await fetch(`${deps.baseUrl}/ingest/v1/configuration/ack`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify({ mapping_version: config.mapping_version }),
        });
        await ack.body?.cancel();
        if (ack.ok) applied.set(cellId, config.mapping_version);
      } catch (error) {
        deps.logger.warn("Demo field cell poll failed", { cellId, error });
      }
    }
  };
  let running = pollOnce();
  const timer = setInterval(() => {
    running = running.then(pollOnce);
  }, deps.intervalMs ?? 60_000);
  return async () => {
    clearInterval(timer);
    await running;
  };
}
