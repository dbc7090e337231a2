/**
 * The grid contract (gsm), shared with the web app (types with `import type`). Each room of the
 * module keeps its part beside its code: the structure (the grid's enums, the MV predicate, the
 * structure read and the setup calls), the cells (onboarding, lists, mapping, I/O modules) and
 * the map layers. Pure: imports only zod and the rooms' pure rule files.
 */
export * from "./structure/contract.ts";
export * from "./cells/contract.ts";
export * from "./map_layers/contract.ts";
