/**
 * The measuring range of an analog input module as a form types it (io-scale-editor.tsx),
 * checked by the contract's own schema (`ioScaleInput`), so the form names what the server
 * would refuse with the same keys.
 */
import { type IoScale, ioScaleInput } from "./io-modules-api.ts";
import { parseNumber } from "../structure/rules.ts";

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

type Message = { key: string; params?: Record<string, unknown> };

/**
 * The range a draft describes: null when every field is empty (no range), else the values; the
 * messages by field (`min`, `max`, `unit`) of what the server would refuse.
 */
export function readScale(draft: ScaleDraft): {
  scale: IoScale | null;
  messages: Partial<Record<keyof ScaleDraft, Message>>;
} {
  if (!draft.min.trim() && !draft.max.trim() && !draft.unit.trim()) {
    return { scale: null, messages: {} };
  }
  const number = (text: string) => {
    const value = parseNumber(text);
    return value === null ? undefined : value;
  };
  const parsed = ioScaleInput.safeParse({
    min: number(draft.min),
    max: number(draft.max),
    unit: draft.unit,
  });
  if (parsed.success) return { scale: parsed.data, messages: {} };
  const messages: Partial<Record<keyof ScaleDraft, Message>> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0]) as keyof ScaleDraft;
    const params = "params" in issue && issue.params
      ? issue.params as Record<string, unknown>
      : null;
    messages[field] ??= { key: issue.message, ...(params ? { params } : {}) };
  }
  return { scale: null, messages };
}
