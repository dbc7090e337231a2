/**
 * The address of the client that sent a request, for logs and login throttling. Behind a
 * trusted reverse proxy (TRUST_PROXY=true) it is the last entry of X-Forwarded-For, the one
 * the proxy appended; otherwise the connection's peer address, which Deno.serve hands to the
 * Hono app as its env (`remoteAddr`). In-process requests (`app.request` in tests) have none.
 */
import type { Context } from "hono";

/** How the client address is found. */
export interface ClientAddressOptions {
  /** Read X-Forwarded-For (only when a reverse proxy in front sets it and clients cannot). */
  trustProxy: boolean;
}

const MAX_LENGTH = 64;

/** The client's address, or null when it is unknown or malformed. */
export function clientAddress(c: Context, opts: ClientAddressOptions): string | null {
  if (opts.trustProxy) {
    const forwarded = c.req.header("x-forwarded-for");
    const last = forwarded?.split(",").map((part) => part.trim()).filter(Boolean).at(-1);
    if (last) return plausibleAddress(last);
  }
  const env = c.env as { remoteAddr?: { hostname?: unknown } } | undefined;
  const hostname = env?.remoteAddr?.hostname;
  return typeof hostname === "string" ? plausibleAddress(hostname) : null;
}

/** An IPv4 or IPv6 literal (brackets and zone removed), or null for anything else. */
export function plausibleAddress(value: string): string | null {
  const plain = value.trim().replace(/^\[([^\]]*)\](?::\d+)?$/, "$1");
  if (plain.length === 0 || plain.length > MAX_LENGTH) return null;
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(plain)) return plain;
  if (/^\d{1,3}(\.\d{1,3}){3}:\d{1,5}$/.test(plain)) return plain.replace(/:\d+$/, "");
  if (/^[0-9a-f:]+(%[\w.-]+)?$/i.test(plain) && plain.includes(":")) return plain.toLowerCase();
  if (/^[0-9a-f:]*:(\d{1,3}\.){3}\d{1,3}$/i.test(plain)) return plain.toLowerCase();
  return null;
}
