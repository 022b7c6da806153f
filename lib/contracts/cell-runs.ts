/**
 * A matrix row's cells in runs: each code once, followed by how many times it repeats when that
 * is more than once ("p37fp12" is 37 published, one failed, 12 published). Codes are letters and
 * "-", never digits, so the runs read back unambiguously, and they are never longer than the
 * cells themselves (a run of two is two characters either way).
 *
 * Why: ten years of daily units for 3,000 datasets is 11 MB of cells, most of them long runs of
 * one state; the browser spent a second receiving, decoding and parsing that string before it
 * could paint the first screen of it (docs/units.md, *How it stays fast*).
 */
export function toRuns(cells: string): string {
  let out = "";
  for (let i = 0; i < cells.length;) {
    const code = cells.charCodeAt(i);
    let j = i + 1;
    while (j < cells.length && cells.charCodeAt(j) === code) j++;
    out += j - i > 1 ? cells[i]! + (j - i) : cells[i]!;
    i = j;
  }
  return out;
}

const isDigit = (c: number) => c >= 48 && c <= 57;
const ascii = new TextDecoder();

/**
 * The `length` cells of runs written by toRuns; null when `runs` is not such a string (a count
 * without a code before it, a count of 0 or 1, a leading 0, a code outside ASCII) or holds another
 * number of cells, so a broken answer is refused, never drawn (nor a huge count allocated).
 * The cells are filled as bytes and decoded once: 466,000 runs of 3,000 rows as repeated strings
 * joined took 130 ms and as much again of garbage collection in the browser; as bytes, ~15 ms.
 */
export function fromRuns(runs: string, length: number): string | null {
  const bytes = new Uint8Array(length);
  let at = 0;
  for (let i = 0; i < runs.length;) {
    const code = runs.charCodeAt(i++);
    if (isDigit(code) || code > 127) return null;
    if (i === runs.length || !isDigit(runs.charCodeAt(i))) {
      if (at === length) return null;
      bytes[at++] = code;
      continue;
    }
    if (runs.charCodeAt(i) === 48) return null;
    let n = 0;
    while (i < runs.length && isDigit(runs.charCodeAt(i))) {
      n = n * 10 + runs.charCodeAt(i++) - 48;
      if (at + n > length) return null;
    }
    if (n < 2) return null;
    bytes.fill(code, at, at + n);
    at += n;
  }
  return at === length ? ascii.decode(bytes) : null;
}
