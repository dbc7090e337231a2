/**
 * Zips a folder into one file by streaming (fflate): each file is read in chunks and written
 * as it is compressed, so memory stays bounded whatever the export's size. Already compressed
 * data (Parquet, DuckDB) is stored, text is deflated.
 */
import { Zip, ZipDeflate, ZipPassThrough } from "fflate";

/** Every file below `dir`, relative paths with "/" separators, sorted. */
async function filesOf(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory) out.push(...await filesOf(`${dir}/${entry.name}`, rel));
    else if (entry.isFile) out.push(rel);
  }
  return out.sort();
}

/** Writes `target` (a zip of every file below `dir`); `store` keeps data files uncompressed. */
export async function zipFolder(
  dir: string,
  target: string,
  options: { signal?: AbortSignal; store?: boolean } = {},
): Promise<void> {
  const out = await Deno.open(target, { write: true, create: true, truncate: true });
  let writing: Promise<unknown> = Promise.resolve();
  let failed: unknown = null;
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const zip = new Zip((error, chunk, final) => {
    if (error) failed = error;
    else writing = writing.then(() => writeAll(out, chunk));
    if (error || final) {
      writing.then(finished, (e) => {
        failed = e;
        finished();
      });
    }
  });
  try {
    for (const rel of await filesOf(dir)) {
      options.signal?.throwIfAborted();
      const text = rel.endsWith(".txt") || rel.endsWith(".csv");
      const entry = options.store && !text ? new ZipPassThrough(rel) : new ZipDeflate(rel, {
        level: 6,
      });
      zip.add(entry);
      const file = await Deno.open(`${dir}/${rel}`, { read: true });
      let last: Uint8Array | null = null;
      for await (const chunk of file.readable) {
        if (last) entry.push(last);
        last = chunk;
        // Back pressure: never more than one chunk ahead of the disk.
        await writing;
        if (failed) throw failed;
      }
      entry.push(last ?? new Uint8Array(0), true);
      await writing;
    }
    zip.end();
    await done;
    if (failed) throw failed;
  } finally {
    out.close();
  }
}

async function writeAll(file: Deno.FsFile, data: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < data.length) offset += await file.write(data.subarray(offset));
}
