import type { Metadata } from "next";
import type { ReactNode } from "react";
import { Providers } from "./providers";
import { SideNav } from "@/components/shell/SideNav";
import { statePaletteCss } from "@/components/shell/state-palette";
import "./globals.css";

// Every page is rendered per request: a prerendered page is served with s-maxage=31536000, and a
// shared cache in front of the console would keep serving a page whose scripts an upgrade removed.
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: "Reparo", template: "%s · Reparo" },
  description: "Operations console for partial failures in partitioned data pipelines",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        {/* The unit states' colours, from their one palette module (hoisted into <head> by React). */}
        <style href="unit-state-palette" precedence="default">
          {statePaletteCss()}
        </style>
        <Providers>
          <a href="#content" className="skip-link">
            Skip to the page
          </a>
          <div className="shell">
            <SideNav />
            <main id="content" className="content" tabIndex={-1}>
              {children}
            </main>
          </div>
        </Providers>
      </body>
    </html>
  );
}
