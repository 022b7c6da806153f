import { z } from "zod";

/**
 * Characters that reorder how text is displayed without being seen: bidirectional embeddings,
 * overrides and isolates (U+202A–U+202E, U+2066–U+2069, the "Trojan Source" set) and the
 * invisible direction marks (U+200E, U+200F, U+061C). In a job or dataset name they make two
 * different ids look alike on every page; in a title they make one read backwards.
 */
export const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;
export const BIDI_MESSAGE = "must not contain bidirectional control characters (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C)";

/** Longest namespace or name accepted (a Marquez node id holds both): 1,000 characters. */
export const NAME_MAX = 1_000;
/** Longest run id accepted (UUIDs are 36; dbt and Spark ids are shorter than this). */
export const RUN_ID_MAX = 256;

/** A producer's namespace or name: non-empty, at most NAME_MAX characters, no bidirectional controls. */
export const producerName = (max = NAME_MAX) =>
  z
    .string()
    .trim()
    .min(1, "must be a non-empty string")
    .max(max, `must be at most ${max} characters`)
    .refine((s) => !BIDI_CONTROL.test(s), BIDI_MESSAGE);
