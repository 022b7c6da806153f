/**
 * Whether a unit's input version differs from its neighbours' (the prevailing one). Versions
 * that list their inputs, `name@version` joined by commas (as the executor and OpenLineage
 * ingestion record them: "fct_orders@1,running_balance@1"), are compared input by input on the
 * inputs both name: the first unit of a model that reads its own past has no earlier unit to
 * read, and an input it did not read is not another version of it. Versions in any other form,
 * or with no input in common, are compared whole.
 */
export function inputVersionDiffers(version: string | null, prevailing: string): boolean {
  if (version === prevailing) return false;
  const [mine, theirs] = [inputsOf(version), inputsOf(prevailing)];
  if (!mine || !theirs) return true;
  let shared = 0;
  for (const [input, v] of mine) {
    const other = theirs.get(input);
    if (other === undefined) continue;
    if (other !== v) return true;
    shared++;
  }
  return shared === 0;
}

function inputsOf(version: string | null): Map<string, string> | null {
  if (!version) return null;
  const out = new Map<string, string>();
  for (const part of version.split(",")) {
    const at = part.lastIndexOf("@");
    if (at <= 0) return null;
    out.set(part.slice(0, at), part.slice(at + 1));
  }
  return out;
}
