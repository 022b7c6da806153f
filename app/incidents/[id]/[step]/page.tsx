import { notFound } from "next/navigation";
import { STEP_SLUGS } from "@/components/repair/wizard-steps";

/** /incidents/{id}/{step}: the wizard (the layout) shows that step; a step that does not exist is a 404. */
export default async function Page({ params }: { params: Promise<{ step: string }> }) {
  const { step } = await params;
  if (!(STEP_SLUGS as readonly string[]).includes(step)) notFound();
  return null;
}
