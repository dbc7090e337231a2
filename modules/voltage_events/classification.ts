/** How the stored classification of an event (core/events) reads in the answers. */
import { DIP_ROW_IDS, type EventType, SWELL_ROW_IDS, type TableCellDto } from "./contract.ts";

/** The events family of a classified kind. */
export function typeOfKind(kind: string): EventType {
  return kind.startsWith("INTERRUPTION") ? "INTERRUPTION" : kind as EventType;
}

/** The stored `row/column` table cell as the answer's object. */
export function tableCellOf(stored: string | null): TableCellDto | null {
  if (!stored) return null;
  const cut = stored.indexOf("/");
  const row = stored.slice(0, cut);
  const column = stored.slice(cut + 1);
  if ((SWELL_ROW_IDS as readonly string[]).includes(row)) return { table: "SWELL", row, column };
  if ((DIP_ROW_IDS as readonly string[]).includes(row)) return { table: "DIP", row, column };
  return null;
}
