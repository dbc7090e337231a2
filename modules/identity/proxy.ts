/** Forwards /oidc requests from the public server to the provider's loopback port. */
import { Hono } from "hono";
import type { AppEnv } from "../../kernel/mod.ts";

const HOP_BY_HOP = [
  "connection",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
  "content-encoding",
  "content-length",
];

/** Routes mounted at the root that proxy every /oidc/* request. */
export function oidcProxyRoutes(port: number): Hono<AppEnv> {
  return new Hono<AppEnv>().all("/oidc/*", async (c) => {
    const url = new URL(c.req.url);
    const headers = new Headers(c.req.raw.headers);
    headers.set("x-forwarded-host", url.host);
    headers.set("x-forwarded-proto", url.protocol.replace(":", ""));
    const hasBody = !["GET", "HEAD"].includes(c.req.method);
    const upstream = await fetch(`http://127.0.0.1:${port}${url.pathname}${url.search}`, {
      method: c.req.method,
      headers,
      body: hasBody ? await c.req.raw.arrayBuffer() : undefined,
      redirect: "manual",
    });
    const out = new Headers();
    upstream.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.includes(name) && name !== "set-cookie") out.set(name, value);
    });
    for (const cookie of upstream.headers.getSetCookie()) out.append("set-cookie", cookie);
    return new Response(upstream.body, { status: upstream.status, headers: out });
  });
}
