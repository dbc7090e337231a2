/**
 * The demo utility's I/O configuration: a door contact, the boiler release relay and a cabinet
 * temperature sensor (4-20 mA), active on every measured cell in the slots the simulator wires
 * them to (core/simulator SIM_IO: module 1 door, 2 relay, 3 temperature).
 */
import { ioModulesService, type NewIoModule } from "../grid/mod.ts";
import type { Db, EventBus } from "../../kernel/mod.ts";

/** The module definitions, in slot order. */
export const DEMO_IO_MODULES: readonly NewIoModule[] = [
  {
    name: "Station door",
    module_type: "DIGITAL_INPUT",
    system_type: "DRY_CONTACT",
    size: 2,
    resolution: 1,
  },
  {
    name: "Boiler release",
    module_type: "DIGITAL_OUTPUT",
    system_type: "RELAY",
    size: 2,
    resolution: 1,
  },
  {
    name: "Cabinet temperature",
    module_type: "ANALOG_INPUT",
    system_type: "4_20MA",
    size: 2,
    resolution: 0.01,
    // The sensor's 4-20 mA loop spans -20 to 80 °C.
    scale: { min: -20, max: 80, unit: "°C" },
  },
];

/** Defines the modules and activates them on the cells (slots 1, 2, 3 in this order). */
export async function seedDemoIo(
  db: Db,
  bus: EventBus,
  customerKey: string,
  cellIds: Iterable<string>,
): Promise<void> {
  const io = ioModulesService(db, bus);
  const ids: string[] = [];
  for (const m of DEMO_IO_MODULES) ids.push((await io.create(customerKey, m)).id);
  for (const cellId of cellIds) {
    for (const id of ids) await io.activate(customerKey, cellId, id);
  }
}
