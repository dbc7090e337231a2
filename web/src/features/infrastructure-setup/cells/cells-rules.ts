/**
 * The cells rules of the server (modules/grid/cells/contract.ts, cell_mapping.ts) for the
 * forms, with the same limits and message keys (namespace `errors`).
 */

/** A message key of the `errors` namespace with its parameters (as in rules.ts). */
export interface RuleMessage {
  key: string;
  params?: Record<string, unknown>;
}

import { FORBIDDEN_NAME_CHARS as FORBIDDEN } from "../../../../../modules/grid/structure/validation.ts";
import {
  IO_MODULE_TYPES,
  IO_NAME,
  IO_SIZES,
  IO_SYSTEM_TYPES,
  type IoModuleType,
  MAPPED_PHASES as PHASES,
  type MappedPhase as Phase,
  MESSAGE_MAX,
} from "../../../../../modules/grid/contract.ts";

export {
  IO_MODULE_TYPES,
  IO_NAME,
  IO_SIZES,
  IO_SYSTEM_TYPES,
  type IoModuleType,
  MESSAGE_MAX,
  type Phase,
  PHASES,
};

/** Spec 9: search input delay and button loading delay. */
export const SEARCH_DELAY_MS = 500;
export const BUTTON_LOADING_DELAY_MS = 500;

/** The message of a custom message, or null when valid (empty clears it). */
export function customMessageRule(text: string): RuleMessage | null {
  if (text.trim().length > MESSAGE_MAX) {
    return { key: "validation.maxChars", params: { count: MESSAGE_MAX } };
  }
  if (FORBIDDEN.test(text)) return { key: "validation.forbiddenChars" };
  return null;
}

/**
 * Sets the probe of a phase; unmapping a phase (null) unmaps all following phases (spec 4), and
 * a phase can only be mapped once the phases before it are.
 */
export function setPhase(
  phases: Readonly<Record<Phase, number | null>>,
  phase: Phase,
  probe: number | null,
): Record<Phase, number | null> {
  const next = { ...phases };
  const index = PHASES.indexOf(phase);
  if (probe === null) {
    for (const p of PHASES.slice(index)) next[p] = null;
    return next;
  }
  // A probe is used once per feeder: the phase that had it loses it (and the ones after it).
  const holder = PHASES.find((p) => p !== phase && next[p] === probe);
  next[phase] = probe;
  if (holder) return { ...setPhase(next, holder, null), [phase]: probe };
  return next;
}

/** A phase can be chosen when every phase before it is mapped. */
export function phaseEnabled(phases: Readonly<Record<Phase, number | null>>, phase: Phase) {
  return PHASES.slice(0, PHASES.indexOf(phase)).every((p) => phases[p] !== null);
}

/** Server rules of one feeder's mapping: 105 for the neutral alone, 111 for MV estimation. */
export function feederMappingRule(
  phases: Readonly<Record<Phase, number | null>>,
  mvEstimation: boolean,
): RuleMessage | null {
  const mapped = PHASES.filter((p) => phases[p] !== null);
  if (mapped.length === 1 && mapped[0] === "N") return { key: "mapping.neutralOnlyUnsupported" };
  if (mvEstimation && !(phases.L1 && phases.L2 && phases.L3)) {
    return { key: "mapping.threePhasesRequired" };
  }
  return null;
}

/** The messages of the module form by field. */
export function ioModuleMessages(form: {
  size: number | null;
  resolution: number | null;
}): Record<string, RuleMessage> {
  const out: Record<string, RuleMessage> = {};
  if (form.size === null) out.size = { key: "validation.selectModuleSize" };
  if (form.resolution === null) out.resolution = { key: "validation.setModuleResolution" };
  else if (Number.isNaN(form.resolution) || form.resolution < -1 || form.resolution > 1) {
    out.resolution = { key: "validation.resolutionRange" };
  }
  return out;
}
