// @ts-check

const dev = process.env.NODE_ENV !== "production";

/**
 * Security headers on every page and API answer (docs/operations.md). Next.js renders inline
 * bootstrap scripts, so scripts allow 'unsafe-inline' but no other origin; nothing may frame
 * the console (clickjacking of the repair buttons), nothing is sniffed, no referrer leaves it.
 * HSTS is ignored by browsers over plain HTTP and pins HTTPS once the console is served over it.
 */
const csp = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  `connect-src 'self'${dev ? " ws:" : ""}`,
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join("; ");

const securityHeaders = [
  { key: "Content-Security-Policy", value: csp },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  { key: "Strict-Transport-Security", value: "max-age=31536000; includeSubDomains" },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Loaded by Node at run time, not bundled: the job queue (pg-boss and its pg driver), metrics.
  serverExternalPackages: ["pg-boss", "prom-client"],
  // Lets parallel builds (a developer's e2e run beside another's) use separate output folders.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders }];
  },
};

module.exports = nextConfig;
