"""Copy an OpenLineage ndjson recording (compact JSON, one event a line), optionally smaller.

    python3 peers/drivers/slim_events.py IN.ndjson OUT.ndjson [--strip-repeats]

--strip-repeats: the FIRST event of every (job name, eventType) pair is kept whole; in every later event of
the same pair the facets in REPEATS are removed (the keys are gone: OpenLineage facets are optional).
These facets never name a run, a state, a dataset, an owner or an error, and they repeat the first event's
content except for the day inside the SQL text: dataset facets `schema` (inputs and outputs) and
`columnLineage` (outputs), job facets `sql`, `documentation`, `tags`, run facet `tags`.
Documented in test/fixtures/peers/README.md. Prints the byte count per facet before stripping.
"""
import argparse
import collections
import json

REPEATS = {("input", "schema"), ("output", "schema"), ("output", "columnLineage"),
           ("job", "sql"), ("job", "documentation"), ("job", "tags"), ("run", "tags")}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("dst")
    ap.add_argument("--strip-repeats", action="store_true")
    a = ap.parse_args()
    sizes: collections.Counter = collections.Counter()
    stripped: collections.Counter = collections.Counter()
    seen: set = set()
    out = []
    with open(a.src) as f:
        for line in f:
            if not line.strip():
                continue
            ev = json.loads(line)
            pair = ((ev.get("job") or {}).get("name"), ev.get("eventType"))
            strip = a.strip_repeats and pair in seen
            seen.add(pair)

            def visit(where: str, facets: dict | None) -> None:
                for name in list(facets or {}):
                    n = len(json.dumps(facets[name], separators=(",", ":")))
                    sizes[(where, name)] += n
                    if strip and (where, name) in REPEATS:
                        del facets[name]
                        stripped[(where, name)] += 1

            visit("run", (ev.get("run") or {}).get("facets"))
            visit("job", (ev.get("job") or {}).get("facets"))
            for io in ("inputs", "outputs"):
                for ds in ev.get(io) or []:
                    visit(io[:-1], ds.get("facets"))
                    key = "inputFacets" if io == "inputs" else "outputFacets"
                    visit(key, ds.get(key))
            out.append(json.dumps(ev, separators=(",", ":")))
    with open(a.dst, "w") as f:
        f.write("\n".join(out) + ("\n" if out else ""))
    total = sum(len(x) + 1 for x in out)
    print(f"[slim] {a.src}: {len(out)} events -> {a.dst} ({total} bytes)")
    for (where, name), n in sizes.most_common(14):
        s = stripped.get((where, name))
        print(f"[slim]   {where}.{name}: {n} bytes" + (f" (removed from {s} repeated events)" if s else ""))


if __name__ == "__main__":
    main()
