/**
 * The state tones of the design system (ux guide: ok, warning, critical, neutral), one class set
 * per tone for the small pieces that show a state with colour: badges and inline notices. Colour
 * never stands alone: the pieces carry an icon or a label.
 */

export const TONES = ["ok", "warning", "critical", "neutral"] as const;
export type Tone = (typeof TONES)[number];

/** Soft background and the tone's text colour (badges). */
export const SOFT_TONE: Readonly<Record<Tone, string>> = {
  ok: "bg-state-ok-soft text-state-ok",
  warning: "bg-state-warning-soft text-state-warning",
  critical: "bg-state-critical-soft text-state-critical",
  neutral: "bg-state-offline-soft text-state-offline",
};

/** Bordered soft panel with plain text (notices); the icon carries the tone's colour. */
export const PANEL_TONE: Readonly<Record<Tone, { panel: string; icon: string }>> = {
  ok: { panel: "border-state-ok bg-state-ok-soft", icon: "text-state-ok" },
  warning: { panel: "border-state-warning bg-state-warning-soft", icon: "text-state-warning" },
  critical: { panel: "border-state-critical bg-state-critical-soft", icon: "text-state-critical" },
  neutral: { panel: "border-border bg-surface", icon: "text-muted-foreground" },
};

/** Whether a message of this tone interrupts (role alert) or is only announced (role status). */
export function liveRole(tone: Tone): "alert" | "status" {
  return tone === "warning" || tone === "critical" ? "alert" : "status";
}
