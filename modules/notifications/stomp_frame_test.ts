import assert from "node:assert/strict";
import {
  bodyText,
  escapeHeader,
  serializeFrame,
  type StompFrame,
  StompParser,
  StompProtocolError,
  unescapeHeader,
} from "./stomp_frame.ts";

const frames = (items: ReturnType<StompParser["push"]>) =>
  items.filter((i): i is StompFrame => i !== "heartbeat");

Deno.test("parses a CONNECT frame with CRLF line ends and keeps header case", () => {
  const [frame] = frames(
    new StompParser().push(
      "CONNECT\r\naccept-version:1.2\r\nhost:gw\r\nAuthorization:Bearer a.b.c\r\n\r\n\0",
    ),
  );
  assert.equal(frame?.command, "CONNECT");
  assert.deepEqual(frame?.headers, {
    "accept-version": "1.2",
    host: "gw",
    Authorization: "Bearer a.b.c",
  });
  assert.equal(frame?.body.length, 0);
});

Deno.test("CONNECT header values are not unescaped; other frames' are", () => {
  const parser = new StompParser();
  const [connect] = frames(parser.push("CONNECT\npasscode:a\\cb\n\n\0"));
  assert.equal(connect?.headers.passcode, "a\\cb");
  const [subscribe] = frames(
    parser.push("SUBSCRIBE\nid:0\ndestination:/a\\cb\\nc\\rd\\\\e\n\n\0"),
  );
  assert.equal(subscribe?.headers.destination, "/a:b\nc\rd\\e");
});

Deno.test("escaping round-trips and undefined escapes are fatal", () => {
  const value = "a:b\nc\rd\\e";
  assert.equal(escapeHeader(value), "a\\cb\\nc\\rd\\\\e");
  assert.equal(unescapeHeader(escapeHeader(value)), value);
  assert.throws(() => unescapeHeader("a\\tb"), StompProtocolError);
  assert.throws(() => new StompParser().push("SEND\ndestination:a\\x\n\n\0"), StompProtocolError);
});

Deno.test("the first of repeated headers wins", () => {
  const [frame] = frames(new StompParser().push("SEND\nfoo:1\nfoo:2\n\nbody\0"));
  assert.equal(frame?.headers.foo, "1");
  assert.equal(bodyText(frame!), "body");
});

Deno.test("content-length allows NUL inside the body and must be followed by NUL", () => {
  const parser = new StompParser();
  const [frame] = frames(parser.push("SEND\ncontent-length:5\n\na\0b\0c\0"));
  assert.deepEqual([...frame!.body], [0x61, 0, 0x62, 0, 0x63]);
  assert.throws(
    () => new StompParser().push("SEND\ncontent-length:2\n\nabc\0"),
    /not followed by NUL/,
  );
  assert.throws(() => new StompParser().push("SEND\ncontent-length:-1\n\n\0"), /content-length/);
});

Deno.test("content-length counts bytes, not characters", () => {
  const body = "Zürich ⚡";
  const bytes = new TextEncoder().encode(body).length;
  const [frame] = frames(
    new StompParser().push(`SEND\ncontent-length:${bytes}\n\n${body}\0`),
  );
  assert.equal(bodyText(frame!), body);
});

Deno.test("several frames and heart-beats in one message, a frame across messages", () => {
  const parser = new StompParser();
  const items = parser.push("\nSEND\ndestination:a\n\nx\0\r\n\nSEND\ndestination:b\n\ny\0SEN");
  assert.deepEqual(
    items.map((i) => (i === "heartbeat" ? i : i.headers.destination)),
    ["heartbeat", "a", "heartbeat", "heartbeat", "b"],
  );
  assert.deepEqual(parser.push("D\ndestination:c\n"), []);
  const [last] = frames(parser.push(new TextEncoder().encode("\nz\0")));
  assert.equal(last?.headers.destination, "c");
  assert.equal(bodyText(last!), "z");
});

Deno.test("refuses unknown commands, malformed headers and oversized frames", () => {
  assert.throws(() => new StompParser().push("HELLO\n\n\0"), /Unknown command/);
  assert.throws(() => new StompParser().push("SEND\nno-colon\n\n\0"), /Malformed header/);
  assert.throws(() => new StompParser().push("SEND\n:value\n\n\0"), /Malformed header/);
  // A complete frame inside one message counts as much as one split over several.
  assert.throws(
    () => new StompParser({ maxFrameBytes: 64 }).push(`SEND\nx:${"y".repeat(100)}\n\nbody\0`),
    /larger than 64/,
  );
  const small = new StompParser({ maxFrameBytes: 64 });
  assert.throws(() => small.push(`SEND\ndestination:a\n\n${"x".repeat(100)}`), /larger than 64/);
  assert.throws(
    () => new StompParser({ maxFrameBytes: 64 }).push("SEND\ncontent-length:1000\n\n"),
    /larger than 64/,
  );
  assert.throws(() => new StompParser().push("SEND\0"), /ended in its headers/);
  // Server frames are unknown to the server-side parser, client frames to the client side.
  assert.throws(() => new StompParser().push("MESSAGE\n\n\0"), /Unknown command/);
  assert.throws(() => new StompParser({ side: "client" }).push("SEND\n\n\0"), /Unknown command/);
});

Deno.test("serializes with escaping, content-length and NUL; the parser reads it back", () => {
  const bytes = serializeFrame("MESSAGE", { destination: "/user/a:b/n" }, "[1]");
  const text = new TextDecoder().decode(bytes);
  assert.equal(text, "MESSAGE\ndestination:/user/a\\cb/n\ncontent-length:3\n\n[1]\0");
  const [frame] = frames(new StompParser({ side: "client" }).push(bytes));
  assert.equal(frame?.headers.destination, "/user/a:b/n");
  assert.equal(bodyText(frame!), "[1]");
  assert.equal(
    new TextDecoder().decode(serializeFrame("CONNECTED", { version: "1.2", x: "a:b" })),
    "CONNECTED\nversion:1.2\nx:a:b\n\n\0",
  );
});
