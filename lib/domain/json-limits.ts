import { MalformedInputError } from "./errors";

/**
 * Limits checked on the raw text before JSON.parse, in one linear pass: nesting deeper than
 * MAX_JSON_DEPTH (thousands of levels of `[` would overflow the stack of every recursive walk
 * after the parse) and arrays longer than the caller's limit (lineage: its events per request —
 * a long array of integers would be validated element by element for nothing). Either refuses
 * the input as malformed, naming the limit.
 *
 * @example checkJsonLimits("[[1]]", "body", 1) // throws MalformedInputError "body: nested deeper than 1 levels"
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
        throw new MalformedInputError(field, `nested deeper than ${maxDepth} levels`, {
          issues: [{ path: field, message: `nested deeper than ${maxDepth} levels` }],
        });
    } else if (c === 0x5d || c === 0x7d) {
      isArray.pop();
      counts.pop();
    } else if (c === 0x2c && isArray.length > 0 && isArray[isArray.length - 1]) {
      const n = ++counts[counts.length - 1]!;
      if (n >= maxArray)
        throw new MalformedInputError(field, `an array longer than ${maxArray} elements`, {
          issues: [{ path: field, message: `an array longer than ${maxArray} elements` }],
        });
    }
  }
}

/** A JSON body's value: empty or malformed text, or text past the limits, is refused naming `body`. */
export function parseJsonInput(text: string): unknown {
  if (text.trim() === "") throw new MalformedInputError("body", "a JSON body is required");
  checkJsonLimits(text);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new MalformedInputError("body", `malformed JSON (${(e as Error).message})`);
  }
}
