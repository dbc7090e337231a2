/** The WebSocket endpoint of STOMP at /nsm/websocket: the handshake and the socket's events. */
import { Hono } from "hono";
import { type AppEnv, AppError, doc } from "../../kernel/mod.ts";
import type { NotificationHub } from "./stomp_hub.ts";
import { type StompOptions, StompSession } from "./stomp.ts";

/** The WebSocket subprotocols of STOMP this server speaks; 1.2 only (accept-version). */
export const SUBPROTOCOLS = ["v12.stomp"] as const;

/**
 * The subprotocol to answer from a Sec-WebSocket-Protocol offer: RFC 6455 lists tokens
 * separated by commas with optional spaces (`v12.stomp,v11.stomp` from Node's `ws`). Null when
 * nothing is offered (accepted: plain WebSocket clients); undefined when nothing offered is ours.
 */
export function pickSubprotocol(offer: string | undefined): string | null | undefined {
  if (offer === undefined || offer.trim() === "") return null;
  const offered = offer.split(",").map((token) => token.trim().toLowerCase());
  return SUBPROTOCOLS.find((protocol) => offered.includes(protocol));
}

/**
 * The GET /websocket route (mounted at /nsm). A plain GET answers 400, an offer without
 * `v12.stomp` 400 naming it. The upgrade is Deno's own: its protocol check splits the offer on
 * ", " only, so the chosen subprotocol is set on the 101 answer here.
 */
export function stompRoutes(hub: NotificationHub, options: StompOptions): Hono<AppEnv> {
  return new Hono<AppEnv>().get(
    "/websocket",
    doc({
      summary: "STOMP 1.2 over WebSocket: live notifications (token in CONNECT)",
      status: 101,
    }),
    (c) => {
      if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
        throw new AppError("common.badRequest", { reason: "websocketUpgradeRequired" });
      }
      const protocol = pickSubprotocol(c.req.header("sec-websocket-protocol"));
      if (protocol === undefined) {
        throw new AppError("common.badRequest", {
          reason: "unsupportedSubprotocol",
          supported: SUBPROTOCOLS.join(", "),
        });
      }
      let upgraded: ReturnType<typeof Deno.upgradeWebSocket>;
      try {
        upgraded = Deno.upgradeWebSocket(c.req.raw);
      } catch {
        // Not a connection Deno can upgrade (a malformed handshake, or an in-process request).
        throw new AppError("common.badRequest", { reason: "websocketUpgradeRequired" });
      }
      const { response, socket } = upgraded;
      if (protocol) response.headers.set("sec-websocket-protocol", protocol);
      socket.binaryType = "arraybuffer";
      const session = new StompSession(
        { send: (text) => socket.send(text), close: (code, reason) => socket.close(code, reason) },
        hub,
        options,
      );
      socket.onmessage = (event) => {
        const data = event.data;
        if (typeof data === "string" || data instanceof ArrayBuffer) session.receive(data);
        else session.close(1003, "Unsupported data");
      };
      socket.onclose = () => session.close();
      socket.onerror = () => session.close(1011, "Socket error");
      return response;
    },
  );
}
