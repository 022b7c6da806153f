// @ts-check
/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Lets parallel builds (a developer's e2e run beside another's) use separate output folders.
  distDir: process.env.NEXT_DIST_DIR || ".next",
};

module.exports = nextConfig;
