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
