/**
 * A real MQTT broker for tests and benchmarks: Debian's mosquitto on a free loopback port, with
 * in-flight and queue limits large enough for thousands of cells. `npm test` installs it.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./acknowledged.ts";

const BINARIES = ["/usr/sbin/mosquitto", "/usr/bin/mosquitto"];

/** A running broker. */
export interface Broker {
  url: string;
  stop(): Promise<void>;
}

/** Why no broker can run here, or null when one can. */
export function brokerUnavailable(): string | null {
  return BINARIES.some(existsSync) ? null : "mosquitto is not installed";
}

/** Starts mosquitto and waits until it accepts connections. */
export async function startBroker(): Promise<Broker> {
  const binary = BINARIES.find(existsSync);
  if (!binary) throw new Error("Cannot start an MQTT broker: mosquitto is not installed");
  const dir = await mkdtemp(join(tmpdir(), "gridwatch-mqtt-"));
  const port = freePort();
  await writeFile(
    join(dir, "mosquitto.conf"),
    [
      `listener ${port} 127.0.0.1`,
      "allow_anonymous true",
      "persistence false",
      "max_inflight_messages 1000",
      "max_queued_messages 1000000",
      "max_queued_bytes 0",
      "log_dest none",
    ].join("\n") + "\n",
  );
  const child = new Deno.Command(binary, {
    args: ["-c", join(dir, "mosquitto.conf")],
    stdout: "null",
    stderr: "null",
  }).spawn();
  for (let k = 0; k < 100; k++) {
    try {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port });
      conn.close();
      return {
        url: `mqtt://127.0.0.1:${port}`,
        async stop() {
          try {
            child.kill("SIGTERM");
          } catch {
            // gone already
          }
          await child.status;
          await rm(dir, { recursive: true, force: true });
        },
      };
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  child.kill("SIGKILL");
  await child.status;
  throw new Error(`mosquitto did not listen on port ${port} within 5 s`);
}
