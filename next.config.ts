import type { NextConfig } from 'next';
import { MAX_SUBMISSION_BYTES } from './leaderboard/submission-limit';

const config: NextConfig = {
  // Game builds live in public/ and are served as static files.
  reactStrictMode: true,
  poweredByHeader: false,
  // Server code reads game catalogs and drives browsers: keep these out of the bundle.
  serverExternalPackages: ['playwright-core', '@electric-sql/pglite', 'postgres', 'webgpu', 'esbuild', 'pg-boss', 'pg'],
  // `npm test` type-checks the whole project with tsc first; checking again here only costs time.
  typescript: { ignoreBuildErrors: true },
  experimental: {
    // With proxy.ts present, Next.js copies each request body it hands the proxy and keeps only
    // this much of it (10 MiB by default), silently: a larger run reached the route cut short.
    // POST /api/runs is outside the proxy's matcher, so its handler reads and limits the body
    // itself; this keeps any other route that ever takes a body from being cut below the same limit.
    proxyClientMaxBodySize: MAX_SUBMISSION_BYTES,
  },
};

export default config;
