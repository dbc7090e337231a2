/** The measuring range of an analog input module as a form types it (io-scale-editor.tsx). */
import { type IoScale, ioScaleIssues } from "./io-modules-api.ts";
import { parseNumber } from "./rules.ts";

/** The signal unit of an analog system type. */
export const SIGNAL_UNITS: Readonly<Record<string, string>> = { "4_20MA": "mA", "0_10V": "V" };

/** The range as typed. */
export interface ScaleDraft {
  min: string;
  max: string;
  unit: string;
}

export const EMPTY_SCALE: ScaleDraft = { min: "", max: "", unit: "" };

/** The form of a stored range (empty without one). */
export function draftOf(scale: IoScale | null | undefined): ScaleDraft {
  return scale ? { min: String(scale.min), max: String(scale.max), unit: scale.unit } : EMPTY_SCALE;
}

/**
 * The range a draft describes: null when every field is empty (no range), else the values; the
 * messages by field (`min`, `max`, `unit`) of what the server would refuse.
 */
export function readScale(draft: ScaleDraft): {
  scale: IoScale | null;
  messages: Partial<Record<keyof ScaleDraft, { key: string; params?: Record<string, unknown> }>>;
} {
  if (!draft.min.trim() && !draft.max.trim() && !draft.unit.trim()) {
    return { scale: null, messages: {} };
  }
  const scale = {
    min: parseNumber(draft.min) ?? Number.NaN,
    max: parseNumber(draft.max) ?? Number.NaN,
    unit: draft.unit.trim(),
  };
  const raw = {
    min: draft.min.trim() ? scale.min : null,
    max: draft.max.trim() ? scale.max : null,
    unit: draft.unit,
  };
  const messages: ReturnType<typeof readScale>["messages"] = {};
  for (const issue of ioScaleIssues(raw, "ANALOG_INPUT")) {
    const field = issue.path.replace("scale.", "") as keyof ScaleDraft;
    messages[field] ??= { key: issue.key, ...(issue.params ? { params: issue.params } : {}) };
  }
  return { scale, messages };
}
