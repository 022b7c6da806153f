import type { Metadata } from "next";
import { PageHeader } from "@/components/shell/PageHeader";
import { SignInPage } from "@/components/access/SignInPage";

export const metadata: Metadata = { title: "Sign in" };

export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const q = await searchParams;
  const one = (v: string | string[] | undefined) => (typeof v === "string" ? v : null);
  return (
    <>
      <PageHeader title="Sign in" lead="Reading needs no sign-in; changing anything does, and what you may change follows your role." />
      <SignInPage error={one(q.error)} signedOut={one(q["signed-out"]) !== null} next={one(q.next) ?? "/"} />
    </>
  );
}
