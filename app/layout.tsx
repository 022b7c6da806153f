import type { Metadata } from "next";
import type { ReactNode } from "react";
import { Providers } from "./providers";
import { SideNav } from "@/components/shell/SideNav";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Reparo", template: "%s · Reparo" },
  description: "Operations console for partial failures in partitioned data pipelines",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>
          <div className="shell">
            <SideNav />
            <main className="content">{children}</main>
          </div>
        </Providers>
      </body>
    </html>
  );
}
