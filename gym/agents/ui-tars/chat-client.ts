import { z } from 'zod';
import { ArcadeGymError } from '../../errors';
import type { ChatMessage } from './conversation';

/**
 * POST {baseUrl}/chat/completions on any OpenAI-compatible server (OpenAI, vLLM, SGLang,
 * llama.cpp, Ollama, LM Studio, …), with a timeout per attempt and retries on what is
 * worth retrying: network errors, timeouts, 408/409/429 and 5xx (honouring Retry-After).
 * Anything else fails at once with the server's own message.
 */

export interface ChatClientOptions {
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
  retries: number;
  /** First back-off; doubles each retry. */
  retryDelayMs: number;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  temperature: number;
  max_tokens: number;
  [extra: string]: unknown;
}

export interface ChatReply {
  text: string;
  attempts: number;
  usage: { promptTokens: number; completionTokens: number };
}

const ContentPart = z.looseObject({ type: z.string(), text: z.string().optional() });
const ChatCompletion = z.looseObject({
  choices: z.array(z.looseObject({ message: z.looseObject({ content: z.union([z.string(), z.array(ContentPart), z.null()]).optional() }) })).min(1),
  usage: z.looseObject({ prompt_tokens: z.number().optional(), completion_tokens: z.number().optional() }).nullish(),
});

const RETRY_STATUS = new Set([408, 409, 429]);
const MAX_RETRY_AFTER_MS = 60_000;

class Retryable extends Error {
  constructor(
    message: string,
    readonly waitMs?: number,
  ) {
    super(message);
  }
}

export function chatCompletionsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
}

export async function postChatCompletion(opts: ChatClientOptions, body: ChatRequest): Promise<ChatReply> {
  const url = chatCompletionsUrl(opts.baseUrl);
  const attempts = opts.retries + 1;
  let lastError = '';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      return { ...(await attemptOnce(url, opts, body)), attempts: attempt };
    } catch (e) {
      if (!(e instanceof Retryable)) throw e;
      lastError = e.message;
      if (attempt === attempts) break;
      const backoff = opts.retryDelayMs * 2 ** (attempt - 1);
      await new Promise((r) => setTimeout(r, Math.max(backoff, e.waitMs ?? 0)));
    }
  }
  throw new ArcadeGymError('MODEL_API_ERROR', `POST ${url} failed after ${attempts} attempt${attempts > 1 ? 's' : ''}: ${lastError}`);
}

async function attemptOnce(url: string, opts: ChatClientOptions, body: ChatRequest): Promise<Omit<ChatReply, 'attempts'>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
  let res: Response;
  let raw: string;
  try {
    res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(opts.timeoutMs) });
    raw = await res.text();
  } catch (e) {
    const err = e as Error & { cause?: { code?: string; message?: string } };
    if (err.name === 'TimeoutError' || err.name === 'AbortError') throw new Retryable(`no answer within ${opts.timeoutMs} ms`);
    throw new Retryable(`cannot reach the server (${err.cause?.code ?? err.cause?.message ?? err.message})`);
  }
  if (!res.ok) {
    const detail = serverMessage(raw);
    if (RETRY_STATUS.has(res.status) || res.status >= 500) {
      const after = Number(res.headers.get('retry-after'));
      throw new Retryable(`HTTP ${res.status}${detail}`, Number.isFinite(after) && after > 0 ? Math.min(after * 1000, MAX_RETRY_AFTER_MS) : undefined);
    }
    const hint =
      res.status === 401 || res.status === 403
        ? ' (set OPENAI_API_KEY or pass --api-key)'
        : res.status === 404
          ? ' (is --base-url right? it should end where /chat/completions begins, e.g. https://api.openai.com/v1)'
          : '';
    throw new ArcadeGymError('MODEL_API_ERROR', `POST ${url}: HTTP ${res.status}${detail}${hint}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new ArcadeGymError('MODEL_API_ERROR', `POST ${url}: the answer is not JSON: ${raw.slice(0, 200)}`);
  }
  const parsed = ChatCompletion.safeParse(json);
  if (!parsed.success)
    throw new ArcadeGymError(
      'MODEL_API_ERROR',
      `POST ${url}: not a chat completion (${parsed.error.issues[0].path.join('.')}: ${parsed.error.issues[0].message}): ${raw.slice(0, 200)}`,
    );
  const content = parsed.data.choices[0].message.content;
  // A null or empty content (a refusal, a tool call) is a reply the agent cannot act on, not a failure of the API.
  const text = typeof content === 'string' ? content : Array.isArray(content) ? content.map((p) => p.text ?? '').join('') : '';
  const usage = parsed.data.usage;
  return { text, usage: { promptTokens: usage?.prompt_tokens ?? 0, completionTokens: usage?.completion_tokens ?? 0 } };
}

function serverMessage(raw: string): string {
  try {
    const j = JSON.parse(raw) as { error?: { message?: string } | string; message?: string };
    const m = typeof j.error === 'string' ? j.error : (j.error?.message ?? j.message);
    if (m) return `: ${m}`;
  } catch {
    // Not JSON: show the start of the text.
  }
  return raw.trim() ? `: ${raw.trim().slice(0, 200)}` : '';
}
