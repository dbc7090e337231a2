import assert from "node:assert/strict";
import { AppError } from "../../kernel/mod.ts";
import { isPublicAddress, proxyTile } from "./tile_proxy.ts";

Deno.test("isPublicAddress() refuses loopback, private, link-local, CGNAT, ULA and mapped private addresses", () => {
  for (
    const inside of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "::1",
      "::",
      "fc00::1",
      "fd12:3456::1",
      "fe80::1",
      "::ffff:10.0.0.1",
      "not-an-address",
    ]
  ) assert.equal(isPublicAddress(inside), false, inside);
  for (const outside of ["8.8.8.8", "172.32.0.1", "193.5.1.1", "2a00:1450:4001::200e"]) {
    assert.equal(isPublicAddress(outside), true, outside);
  }
});

Deno.test("proxyTile() answers 503 without a request when the host resolves to an inside address", async () => {
  const fetched: string[] = [];
  const original = globalThis.fetch;
  globalThis.fetch = (input) => {
    fetched.push(String(input));
    return Promise.resolve(new Response("x"));
  };
  try {
    for (const addresses of [["10.0.0.5"], ["8.8.8.8", "127.0.0.1"], []]) {
      await assert.rejects(
        proxyTile("https://tiles.example.org/1/2/3.png", () => Promise.resolve(addresses)),
        (e) => e instanceof AppError && e.status === 503,
      );
    }
    assert.deepEqual(fetched, []);
  } finally {
    globalThis.fetch = original;
  }
});
