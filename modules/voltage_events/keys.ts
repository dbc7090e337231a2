/**
 * Event keys: an event is named by its cell and the cell's own event id (unique per cell only),
 * packed into one URL-safe token (base64url of `cell_id NUL event_id`).
 */

const NUL = "\u0000";

/** The key of a cell's event. */
export function eventKey(cellId: string, eventId: string): string {
  const bytes = new TextEncoder().encode(`${cellId}${NUL}${eventId}`);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The cell and event id of a key, or `null` when it is no key. */
export function parseEventKey(key: string): { cellId: string; eventId: string } | null {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(key)) return null;
  try {
    const binary = atob(key.replaceAll("-", "+").replaceAll("_", "/"));
    const text = new TextDecoder("utf-8", { fatal: true }).decode(
      Uint8Array.from(binary, (c) => c.charCodeAt(0)),
    );
    const [cellId, eventId, ...rest] = text.split(NUL);
    if (!cellId || !eventId || rest.length) return null;
    return { cellId, eventId };
  } catch {
    return null;
  }
}
