import 'server-only';

/** Where the site finds the gym's HTTP API (`npx arcade-gym serve`). */
export function gymServer(): { url: string; headers: Record<string, string> } {
  const url = (process.env.ARCADE_GYM_URL ?? 'http://127.0.0.1:8787').replace(/\/$/, '');
  const token = process.env.ARCADE_GYM_TOKEN;
  return { url, headers: token ? { authorization: `Bearer ${token}` } : {} };
}

export interface LiveSession {
  id: string;
  game: string;
  state: string;
  episodeSteps: number;
  maxSteps: number;
  score: number;
  watchers: number;
  episodeInProgress: boolean;
  lastActiveAt: string;
}

export async function listLiveSessions(): Promise<{ sessions: LiveSession[] } | { error: string }> {
  const { url, headers } = gymServer();
  try {
    const res = await fetch(`${url}/v1/sessions`, { headers, cache: 'no-store', signal: AbortSignal.timeout(3000) });
    if (!res.ok) return { error: `the gym server at ${url} answered ${res.status}` };
    return (await res.json()) as { sessions: LiveSession[] };
  } catch {
    return { error: `no gym server is running at ${url}` };
  }
}
