/**
 * The cell protocol over a real MQTT broker (Debian's mosquitto; docs/ingestion-protocol.md,
 * "MQTT"): a cell publishes a batch with QoS 1 and its credential, the platform stores it and
 * answers on the cell's response topic with the HTTP answer's body; wrong credentials, another
 * cell's topic and malformed batches are refused there; a batch the store cannot take stays in
 * flight and is stored once it can, and one published while the platform is down is delivered
 * when it comes back (persistent session).
 */
import assert from "node:assert/strict";
import mqtt, { type MqttClient } from "mqtt";
import { brokerUnavailable, startBroker } from "../helpers/mosquitto.ts";
import { startTestPlatform, type TestPlatform } from "../helpers/platform.ts";

const unavailable = brokerUnavailable();
if (unavailable) console.log(`MQTT ingestion test skipped: ${unavailable}`);

const lastWindow = () => {
  const now = Date.now();
  return now - (now % 20_000) - 20_000;
};

const batch = (ts: number, windows = 1) => ({
  measurements: Array.from({ length: windows }, (_, w) =>
    ["L1", "L2", "L3"].map((phase, p) => ({
      ts: new Date(ts - w * 20_000).toISOString(),
      feeder: 1,
      phase,
      u: 230 + p,
      i: 12.5,
    }))).flat(),
});

/** A cell's MQTT client: publishes a batch and waits for the answer with its correlation. */
async function cellClient(url: string, cellId: string) {
  const answers = new Map<string, (answer: Record<string, unknown>) => void>();
  const client: MqttClient = await mqtt.connectAsync(url, {
    protocolVersion: 5,
    clientId: `cell-${cellId}-${crypto.randomUUID().slice(0, 8)}`,
  });
  const responseTopic = `gridwatch/cells/${cellId}/answers`;
  client.on("message", (_topic, payload, packet) => {
    const id = packet.properties?.correlationData?.toString();
    if (id) answers.get(id)?.(JSON.parse(payload.toString()));
  });
  await client.subscribeAsync(responseTopic, { qos: 1 });
  return {
    /** Publishes; resolves with the platform's answer (rejects after `timeoutMs`). */
    send(body: unknown, credential: string, topicCell = cellId, timeoutMs = 10_000) {
      const id = crypto.randomUUID();
      const answer = new Promise<Record<string, unknown>>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no answer")), timeoutMs);
        answers.set(id, (a) => {
          clearTimeout(timer);
          resolve(a);
        });
      });
      void client.publishAsync(
        `gridwatch/cells/${topicCell}/batches`,
        typeof body === "string" ? body : JSON.stringify(body),
        {
          qos: 1,
          properties: {
            responseTopic,
            correlationData: new TextEncoder().encode(id) as Buffer,
            userProperties: { authorization: `Bearer ${credential}` },
          },
        },
      );
      return answer;
    },
    close: () => client.endAsync(),
  };
}

async function storedRows(platform: TestPlatform, cellId: string): Promise<number> {
  await platform.services.measurements.flush();
  const result = await platform.services.analytics.runAndReadAll(
    `SELECT count(*)::INT FROM raw_measurements r JOIN series s USING (series_id)
     WHERE s.cell_id = '${cellId}'`,
  );
  return (result.getRows()[0] as [number])[0];
}

Deno.test({
  name: "MQTT: a cell's batch is stored once and answered on its response topic",
  ignore: unavailable !== null,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const broker = await startBroker();
    const env = {
      MQTT_URL: broker.url,
      MQTT_CLIENT_ID: `gw-test-${crypto.randomUUID().slice(0, 8)}`,
    };
    const platform = await startTestPlatform("pglite", env);
    try {
      await platform.services.ingestion.mqtt!.ready;
      const demo = await platform.services.customers.getByConnection("demo-ew");
      const [first, second] = await platform.services.cells.listFor(demo!.key, "INSTALLED");
      const credential = await platform.services.cells.rotateCredential(first!.id);
      const other = await platform.services.cells.rotateCredential(second!.id);
      const cell = await cellClient(broker.url, first!.id);
      const ts = lastWindow();

      await t.step(
        "a batch is stored and answered like over HTTP; a resend is a duplicate",
        async () => {
          assert.deepEqual(await cell.send(batch(ts, 2), credential), {
            status: 200,
            accepted: 6,
            duplicates: 0,
            rejected: [],
          });
          assert.deepEqual(await cell.send(batch(ts, 2), credential), {
            status: 200,
            accepted: 0,
            duplicates: 6,
            rejected: [],
          });
          assert.equal(await storedRows(platform, first!.id), 6);
        },
      );

      await t.step(
        "wrong credentials, another cell's topic and bad batches are refused",
        async () => {
          const wrong = await cell.send(batch(ts - 60_000), `${first!.id}.${"x".repeat(43)}`);
          assert.deepEqual([wrong.status, wrong.key], [401, "common.unauthorized"]);
          // A valid credential of another cell does not open this cell's topic.
          const foreign = await cell.send(batch(ts - 60_000), other, first!.id);
          assert.deepEqual([foreign.status, foreign.key], [401, "common.unauthorized"]);
          const notJson = await cell.send("{oops", credential);
          assert.deepEqual([notJson.status, notJson.key], [400, "common.badRequest"]);
          const partly = await cell.send({
            measurements: [...batch(ts - 80_000).measurements, { ts: "yesterday", feeder: 1 }],
          }, credential);
          assert.equal(partly.status, 207);
          assert.equal(partly.accepted, 3);
          assert.equal(await storedRows(platform, first!.id), 9);
        },
      );

      await t.step(
        "a batch the store cannot take stays in flight and is stored later",
        async () => {
          const store = platform.services.measurements;
          const append = store.append.bind(store);
          let failures = 2;
          store.append = (cellId, valid) =>
            failures-- > 0 ? Promise.reject(new Error("disk full (test)")) : append(cellId, valid);
          try {
            const answer = await cell.send(batch(ts - 100_000), credential);
            assert.equal(answer.accepted, 3);
            assert.ok(platform.services.ingestion.mqtt!.stats.retried >= 2);
          } finally {
            store.append = append;
          }
          assert.equal(await storedRows(platform, first!.id), 12);
        },
      );

      await t.step(
        "a batch published while the subscriber is away is stored when it is back",
        async () => {
          const ingestion = platform.services.ingestion;
          await ingestion.close!();
          const late = cell.send(batch(ts - 120_000), credential, first!.id, 30_000);
          await new Promise((r) => setTimeout(r, 300));
          await ingestion.start!();
          await ingestion.mqtt!.ready;
          assert.equal((await late).accepted, 3);
          assert.equal(await storedRows(platform, first!.id), 15);
        },
      );
      await cell.close();
    } finally {
      await platform.close();
      await broker.stop();
    }
  },
});
