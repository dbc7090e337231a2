import assert from "node:assert/strict";
import { unzipSync } from "fflate";
import { zipFolder } from "./zip.ts";
import { csvMarks } from "./service.ts";
import { folderName } from "./writer.ts";

Deno.test("zipFolder() zips nested files by streaming, each byte kept", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/in/a/b`, { recursive: true });
    const big = new Uint8Array(300_000).map((_, k) => k % 251);
    await Deno.writeFile(`${dir}/in/a/b/data.parquet`, big);
    await Deno.writeTextFile(`${dir}/in/README.txt`, "hello");
    await zipFolder(`${dir}/in`, `${dir}/out.zip`, { store: true });
    const files = unzipSync(await Deno.readFile(`${dir}/out.zip`));
    assert.deepEqual(Object.keys(files).sort(), ["README.txt", "a/b/data.parquet"]);
    assert.deepEqual(files["a/b/data.parquet"], big);
    assert.equal(new TextDecoder().decode(files["README.txt"]), "hello");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("zipFolder() stops when its signal is aborted", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/in`);
    await Deno.writeTextFile(`${dir}/in/x.csv`, "a");
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(
      zipFolder(`${dir}/in`, `${dir}/out.zip`, { signal: controller.signal }),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("csvMarks() pairs a decimal comma with the semicolon separator", () => {
  assert.deepEqual(csvMarks("1'234.56"), { separator: ",", decimalMark: "." });
  assert.deepEqual(csvMarks("1.234,56"), { separator: ";", decimalMark: "," });
  assert.deepEqual(csvMarks("1 234,56"), { separator: ";", decimalMark: "," });
});

Deno.test("folderName() keeps grid names readable and safe as folders", () => {
  assert.equal(folderName("TS Dorf"), "TS Dorf");
  assert.equal(folderName("A/B: C"), "A_B_ C");
  assert.equal(folderName(".."), "_");
});
