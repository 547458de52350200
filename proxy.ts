import { NextResponse, type NextRequest } from 'next/server';

/**
 * A path whose percent-encoding does not decode (`/games/%`, `/runs/%E0%A4%A`) names nothing on
 * this site. Next's router fails to decode such a dynamic segment and answers 500 (vercel/next.js
 * issue 92527), before any page or route handler sees the request; answer 404 here instead.
 */
export function proxy(request: NextRequest): NextResponse {
  try {
    decodeURIComponent(request.nextUrl.pathname);
  } catch {
    return new NextResponse('Not found: the path is not valid percent-encoded UTF-8\n', {
      status: 404,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  }
  return NextResponse.next();
}

/**
 * Every path but POST /api/runs' and /api/policy-runs' (no dynamic segment, so nothing to
 * decode). A request the proxy sees has its body copied and cut at the proxy's body limit before
 * the route reads it (see next.config.ts); a run is read, limited (leaderboard/submission-limit.ts)
 * and, when it is gzip, inflated by its own handler, and a checkpoint read and limited by its own
 * (leaderboard/policy-runs.ts): each refuses an oversized body with 413 instead of parsing what is
 * left of it. Next reads this statically: it must stay a literal.
 */
export const config = {
  matcher: ['/((?!api/runs$|api/policy-runs$).*)'],
};
