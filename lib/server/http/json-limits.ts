import { HttpError } from "./errors";

/**
 * Limits checked on the raw text before JSON.parse, in one linear pass: nesting deeper than
 * MAX_JSON_DEPTH (10,000 levels of `[` would overflow the stack of every recursive walk after the parse
 * — a 500) and arrays longer than the route's limit (lineage: 10,000 events — a 100,000-element array of integers
 * cost 25 s of validation for nothing). Both are a 400 naming the limit.
 */
// Deep enough for Spark's logical-plan facet (a tree of plan nodes), far from a stack overflow.
export const MAX_JSON_DEPTH = 256;
export const MAX_JSON_ARRAY = 1_000_000;

export function checkJsonLimits(text: string, field = "body", maxDepth = MAX_JSON_DEPTH, maxArray = MAX_JSON_ARRAY): void {
  // Per open container: is it an array, and how many commas at its own level.
  const isArray: boolean[] = [];
  const counts: number[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      isArray.push(c === 0x5b);
      counts.push(0);
      if (isArray.length > maxDepth)
        throw new HttpError(400, "invalid_request", `${field}: nested deeper than ${maxDepth} levels`, {
          issues: [{ path: field, message: `nested deeper than ${maxDepth} levels` }],
        });
    } else if (c === 0x5d || c === 0x7d) {
      isArray.pop();
      counts.pop();
    } else if (c === 0x2c && isArray.length > 0 && isArray[isArray.length - 1]) {
      const n = ++counts[counts.length - 1]!;
      if (n >= maxArray)
        throw new HttpError(400, "invalid_request", `${field}: an array longer than ${maxArray} elements`, {
          issues: [{ path: field, message: `an array longer than ${maxArray} elements` }],
        });
    }
  }
}
