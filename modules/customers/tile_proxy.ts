/**
 * The online basemap's tiles, fetched by the server for the browser (its Content-Security-Policy
 * stays `'self'`), from public addresses only.
 */
import { isIP } from "node:net";
import { AppError } from "../../kernel/mod.ts";

/** The largest tile passed on, and how long the tile server may take. */
const MAX_TILE_BYTES = 2 * 1024 * 1024;
const TILE_TIMEOUT_MS = 10_000;

/**
 * Fetches a tile of the online basemap for the browser, so that the web app talks to its own
 * origin only (its Content-Security-Policy stays `'self'`): images only, at most 2 MB, 10 s;
 * anything else answers 503.
 */
export async function proxyTile(
  url: string,
  resolve: (host: string) => Promise<string[]> = resolveHost,
): Promise<Response> {
  const unavailable = () => new AppError("common.serviceUnavailable");
  let upstream: Response;
  try {
    // An admin's URL must not reach the platform's own network (SSRF): every address the host
    // resolves to is public, and redirects are not followed (they could lead inside).
    const addresses = await resolve(new URL(url).hostname.replace(/^\[|\]$/g, ""));
    if (!addresses.length || !addresses.every(isPublicAddress)) throw unavailable();
    upstream = await fetch(url, {
      signal: AbortSignal.timeout(TILE_TIMEOUT_MS),
      redirect: "manual",
      headers: { Accept: "image/*" },
    });
  } catch {
    throw unavailable();
  }
  const type = upstream.headers.get("content-type") ?? "";
  if (upstream.status !== 200 || !/^image\/(png|jpeg|webp)\b/i.test(type)) {
    await upstream.body?.cancel();
    throw unavailable();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of upstream.body ?? []) {
      size += chunk.byteLength;
      if (size > MAX_TILE_BYTES) throw unavailable();
      chunks.push(chunk);
    }
  } catch {
    await upstream.body?.cancel().catch(() => {});
    throw unavailable();
  }
  return new Response(new Blob(chunks as Uint8Array<ArrayBuffer>[]), {
    headers: { "Content-Type": type, "Cache-Control": "private, max-age=86400" },
  });
}

/** The addresses a host name resolves to (itself when it is an address). */
async function resolveHost(host: string): Promise<string[]> {
  if (isIP(host)) return [host];
  const found = await Promise.allSettled([
    Deno.resolveDns(host, "A"),
    Deno.resolveDns(host, "AAAA"),
  ]);
  return found.flatMap((r) => (r.status === "fulfilled" ? r.value : []));
}

/**
 * Whether an IPv4 or IPv6 address is on the public internet: not loopback, private (RFC 1918,
 * fc00::/7), link-local, carrier-grade NAT, unspecified, multicast or reserved.
 */
export function isPublicAddress(address: string): boolean {
  const kind = isIP(address);
  if (kind === 4) {
    const [a, b] = address.split(".").map(Number) as [number, number];
    return !(a === 0 || a === 10 || a === 127 || a >= 224 ||
      (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) ||
      (a === 192 && b === 0) || (a === 198 && (b === 18 || b === 19)));
  }
  if (kind !== 6) return false;
  const lower = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return isPublicAddress(mapped[1]!);
  if (lower === "::" || lower === "::1") return false;
  const first = Number.parseInt(lower.split(":")[0] || "0", 16);
  // fc00::/7 unique local, fe80::/10 link-local, ff00::/8 multicast; 2000::/3 is global unicast.
  return first >= 0x2000 && first <= 0x3fff;
}
