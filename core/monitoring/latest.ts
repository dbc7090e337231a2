/**
 * The latest 20-s values per series in typed arrays indexed by the dense series id: updated in
 * O(1) per stored row, read by the grid status without touching the database.
 */

const INITIAL = 1024;

/** Latest voltage, current, active and reactive power, frequency and time per series. */
export class LatestValues {
  #ts = new Float64Array(INITIAL).fill(-Infinity);
  #u = new Float32Array(INITIAL).fill(NaN);
  #i = new Float32Array(INITIAL).fill(NaN);
  #p = new Float32Array(INITIAL).fill(NaN);
  #q = new Float32Array(INITIAL).fill(NaN);
  #f = new Float32Array(INITIAL).fill(NaN);
  #version = 0;

  /**
   * Counts the values recorded: unchanged means no latest value changed since it was read, so
   * results computed from them (the grid status) are still current.
   */
  get version(): number {
    return this.#version;
  }

  /** Records a value when it is newer than the one held (p kW, q kvar, f Hz: NaN when absent). */
  update(seriesId: number, ts: number, u: number, i: number, p = NaN, q = NaN, f = NaN): void {
    if (seriesId >= this.#ts.length) this.#grow(seriesId + 1);
    if (ts <= this.#ts[seriesId]!) return;
    this.#version++;
    this.#ts[seriesId] = ts;
    this.#u[seriesId] = u;
    this.#i[seriesId] = i;
    this.#p[seriesId] = p;
    this.#q[seriesId] = q;
    this.#f[seriesId] = f;
  }

  /** Time of the latest value (ms), or -Infinity when the series never reported. */
  ts(seriesId: number): number {
    return this.#ts[seriesId] ?? -Infinity;
  }

  u(seriesId: number): number {
    return this.#u[seriesId] ?? NaN;
  }

  i(seriesId: number): number {
    return this.#i[seriesId] ?? NaN;
  }

  /** Active power (kW) of the latest value, NaN when the cell did not send it. */
  p(seriesId: number): number {
    return this.#p[seriesId] ?? NaN;
  }

  /** Reactive power (kvar) of the latest value, NaN when the cell did not send it. */
  q(seriesId: number): number {
    return this.#q[seriesId] ?? NaN;
  }

  /** Frequency (Hz) of the latest value, NaN when the cell did not send it. */
  f(seriesId: number): number {
    return this.#f[seriesId] ?? NaN;
  }

  #grow(min: number): void {
    let size = this.#ts.length;
    while (size < min) size *= 2;
    const ts = new Float64Array(size).fill(-Infinity);
    const u = new Float32Array(size).fill(NaN);
    const i = new Float32Array(size).fill(NaN);
    ts.set(this.#ts);
    u.set(this.#u);
    i.set(this.#i);
    this.#ts = ts;
    this.#u = u;
    this.#i = i;
    this.#p = grown(this.#p, size);
    this.#q = grown(this.#q, size);
    this.#f = grown(this.#f, size);
  }
}

function grown(values: Float32Array<ArrayBuffer>, size: number): Float32Array<ArrayBuffer> {
  const out = new Float32Array(size).fill(NaN);
  out.set(values);
  return out;
}
