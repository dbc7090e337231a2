/**
 * CPU time per thread from /proc (Linux): where a process's CPU goes (its JavaScript thread,
 * DuckDB's threads, the runtime's). Ticks of 10 ms.
 */

/** CPU milliseconds of this process by thread name (threads of one name summed). */
export function threadCpu(): Map<string, number> {
  const out = new Map<string, number>();
  const tasks = "/proc/self/task";
  for (const entry of Deno.readDirSync(tasks)) {
    try {
      const [comm, ms] = statOf(`${tasks}/${entry.name}/stat`);
      // Threads a native library starts without a name (DuckDB's) carry the process's name.
      const name = Number(entry.name) === Deno.pid ? "JavaScript (main)" : comm;
      out.set(name, (out.get(name) ?? 0) + ms);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return out;
}

/** The name and user + system CPU time (ms) of one /proc stat file. */
function statOf(path: string): [string, number] {
  const text = Deno.readTextFileSync(path);
  const close = text.lastIndexOf(")");
  const name = text.slice(text.indexOf("(") + 1, close).replace(/[0-9]+$/, "#");
  const fields = text.slice(close + 2).split(" ");
  // After the name: state is field 3 of stat(5); utime and stime are fields 14 and 15.
  return [name, (Number(fields[11]) + Number(fields[12])) * 10];
}

/** What each thread name used between two readings, in ms, largest first. */
export function cpuBetween(
  before: Map<string, number>,
  after: Map<string, number>,
): [string, number][] {
  return [...after].map(([name, ms]) => [name, ms - (before.get(name) ?? 0)] as [string, number])
    .filter(([, ms]) => ms > 0).sort((a, b) => b[1] - a[1]);
}
