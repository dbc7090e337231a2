/** Inputs for the module's tests. */
import type { ComplianceInput } from "../../core/mod.ts";

const SLOT = 600_000;

/** A steady supply: 230 V, 50 Hz, THD 2 %, harmonics 0.1 %, Plt 0.5, unbalance 0.5 %. */
export function steadyInput(from: number, to: number): ComplianceInput {
  const slots = (to - from) / SLOT;
  const filled = (v: number, n = slots) => new Float32Array(n).fill(v);
  return {
    period: { from: new Date(from), to: new Date(to) },
    nominalVoltage: 230,
    nominalFrequency: 50,
    u: [filled(230), filled(230), filled(230)],
    fMin: filled(50),
    fMax: filled(50),
    plt: [0, 1, 2].map(() => filled(0.5, Math.ceil(slots / 12))),
    unbalance: filled(0.5),
    thd: [filled(2), filled(2), filled(2)],
    h: Array.from({ length: 24 }, () => [filled(0.1), filled(0.1), filled(0.1)]),
    flagged: new Uint8Array(slots),
  };
}
