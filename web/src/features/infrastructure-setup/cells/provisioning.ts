/**
 * The provisioning file of newly issued cell credentials, made in the browser from the one
 * answer that carries them (the server keeps only hashes): what a technician or a factory
 * tool loads into the cell. JSON, one object per cell (docs/operations.md, "Onboarding cells").
 */
import type { CellCredentialDto } from "./cells-api.ts";

export const PROVISIONING_FORMAT = "gridwatch-cell-provisioning";
export const PROVISIONING_FORMAT_VERSION = 1;

/** What the file holds of one cell: where to send, who it is, and the Authorization header. */
function entry(cell: CellCredentialDto) {
  return {
    cell_id: cell.cell_id,
    serial_number: cell.serial_number,
    device_model: cell.device_model,
    protocol_version: cell.protocol_version,
    ingest_url: cell.ingest_url,
    configuration_url: cell.configuration_url,
    credential: cell.credential,
    authorization: `Bearer ${cell.credential}`,
    issued_at: cell.issued_at,
  };
}

/** A file name of letters, digits, dot, dash and underscore. */
function safe(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, "_");
}

/**
 * The file of one cell (`gridwatch-cell-<serial>.json`, the cell's fields at the top level) or
 * of several (`gridwatch-cells-<count>-<time>.json`, `{ cells: [...] }`).
 */
export function provisioningFile(
  cells: readonly CellCredentialDto[],
): { name: string; text: string } {
  const head = { format: PROVISIONING_FORMAT, format_version: PROVISIONING_FORMAT_VERSION };
  if (cells.length === 1) {
    const cell = cells[0]!;
    return {
      name: `gridwatch-cell-${safe(cell.serial_number)}.json`,
      text: `${JSON.stringify({ ...head, ...entry(cell) }, null, 2)}\n`,
    };
  }
  const at = (cells[0]?.issued_at ?? "").replace(/[-:]/g, "").replace(/\..*$/, "");
  return {
    name: `gridwatch-cells-${cells.length}-${safe(at)}.json`,
    text: `${JSON.stringify({ ...head, cells: cells.map(entry) }, null, 2)}\n`,
  };
}

/** Saves the provisioning file through a temporary link. */
export function downloadProvisioningFile(cells: readonly CellCredentialDto[]): void {
  const { name, text } = provisioningFile(cells);
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
