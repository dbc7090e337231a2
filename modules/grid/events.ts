/** Integration events of the grid module (consumed by notifications). */

/** Cells that need configuration: new stock, or cells whose node or parent was deleted. */
export interface CellsToConfigure {
  customerKey: string;
  cellIds: string[];
  count: number;
  reason: "DELETED_PARENT" | "NEW_STOCK" | "UNLINKED";
}

/** The line mapping of a cell was validated against its measured data (spec 4). */
export interface MappingValidated {
  customerKey: string;
  cellId: string;
  nodeName: string;
  ewName: string;
  /** CORRECT, CANNOT_BE_VERIFIED, SHIFT_RIGHT, ... (see the mapping validator). */
  verdict: string;
  certainty: "CERTAIN" | "NOT_CERTAIN" | "NO_CONCLUSION";
}

declare module "../../kernel/events.ts" {
  interface EventMap {
    "grid.cellsToConfigure": CellsToConfigure;
    "grid.mappingValidated": MappingValidated;
  }
}
