import { z } from "zod";
import { isCalendarDay } from "@/lib/domain/time-partitions";

/** A calendar day in a query or body (yyyy-MM-dd): "2026-13-45" is refused naming the field, not read as a later date. */
export const dayField = z.string().refine(isCalendarDay, "a calendar day like 2026-08-01 (yyyy-MM-dd)");
