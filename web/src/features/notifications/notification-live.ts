/**
 * The live notification subscription (spec 7): STOMP over WebSocket at /nsm/websocket with the
 * bearer token in the CONNECT headers, heart-beats 25000 ms, reconnect every 10000 ms and give
 * up after 50 failed attempts in a row.
 */
import { Client } from "@stomp/stompjs";
import { useEffect, useRef } from "react";
import { currentAccessToken, webSocketUrl } from "../../lib/api.ts";
import type { NotificationItem } from "./notification-atoms.ts";

export const RECONNECT_DELAY_MS = 10_000;
export const HEARTBEAT_MS = 25_000;
export const MAX_RECONNECT_ATTEMPTS = 50;

/** The user's own destination (docs/contracts.md, "Notification calls"). */
export function notificationDestination(userId: string): string {
  return `/user/${userId}/notifications`;
}

/** Keeps a subscription open while mounted; `onConnect` also runs after every reconnect. */
export function useLiveNotifications(
  userId: string,
  onMessage: (list: NotificationItem[]) => void,
  onConnect: () => void,
): void {
  const handlers = useRef({ onMessage, onConnect });
  handlers.current = { onMessage, onConnect };

  useEffect(() => {
    let failures = 0;
    const client = new Client({
      brokerURL: webSocketUrl("/nsm/websocket"),
      reconnectDelay: RECONNECT_DELAY_MS,
      heartbeatIncoming: HEARTBEAT_MS,
      heartbeatOutgoing: HEARTBEAT_MS,
      // A fresh token at every (re)connect: the session may have been renewed meanwhile.
      beforeConnect: (c) => {
        c.connectHeaders = { Authorization: `Bearer ${currentAccessToken() ?? ""}` };
      },
      onConnect: () => {
        failures = 0;
        client.subscribe(notificationDestination(userId), (message) => {
          try {
            const list: unknown = JSON.parse(message.body);
            if (Array.isArray(list)) handlers.current.onMessage(list as NotificationItem[]);
          } catch {
            // Not a notification list: nothing to show.
          }
        });
        handlers.current.onConnect();
      },
      onWebSocketClose: () => {
        failures++;
        if (client.active && failures >= MAX_RECONNECT_ATTEMPTS) void client.deactivate();
      },
    });
    client.activate();
    return () => void client.deactivate();
  }, [userId]);
}
