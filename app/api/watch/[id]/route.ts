import { gymServer } from '../../../gym-server';

export const dynamic = 'force-dynamic';

/**
 * Relays a session's live event stream from the gym server, so the browser needs neither the
 * gym's address nor its token. When the viewer goes away the upstream stream is closed too,
 * and the session stops publishing frames.
 */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await params;
  const { url, headers } = gymServer();
  let upstream: Response;
  try {
    upstream = await fetch(`${url}/v1/sessions/${encodeURIComponent(id)}/watch`, { headers, signal: request.signal, cache: 'no-store' });
  } catch {
    return Response.json({ error: { code: 'GYM_UNAVAILABLE', message: `no gym server is running at ${url}` } }, { status: 502 });
  }
  if (!upstream.ok || !upstream.body) {
    return new Response(await upstream.text(), {
      status: upstream.status,
      headers: { 'content-type': upstream.headers.get('content-type') ?? 'application/json' },
    });
  }
  return new Response(upstream.body, { headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store' } });
}
