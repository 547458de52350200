import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ArcadeGymError } from '../../errors';

/**
 * Settings of the `openai` agent. The CLI passes strings, so numbers are coerced; unknown
 * keys are refused so a typo in --agent-config is an error, not a silent default.
 */
export const OpenAiAgentOptions = z.strictObject({
  /** Up to where /chat/completions begins. */
  baseUrl: z.url({ protocol: /^https?$/ }).default('https://api.openai.com/v1'),
  model: z.string().min(1, 'the model name is required (--model)'),
  /** Falls back to OPENAI_API_KEY; local servers often need none. */
  apiKey: z.string().optional(),
  temperature: z.coerce.number().min(0).max(2).default(0),
  maxTokens: z.coerce.number().int().positive().default(512),
  /** Previous turns (screenshot + reply) kept in the conversation; a request has at most history + 1 images. */
  history: z.coerce.number().int().min(0).max(100).default(4),
  /** Replaces the default instructions; {title}, {description}, {controls}, {msPerStep}, {stepBudget}, {width}, {height}, {coordinates} are filled in. */
  systemPrompt: z.string().min(1).optional(),
  coordinates: z.enum(['relative-1000', 'pixels']).default('relative-1000'),
  /** Wheel delta of one scroll action, in pixels. */
  scrollAmount: z.coerce.number().positive().default(120),
  /** Per attempt. */
  timeoutMs: z.coerce.number().int().positive().default(60_000),
  retries: z.coerce.number().int().min(0).max(10).default(2),
  retryDelayMs: z.coerce.number().int().min(0).default(1_000),
  imageDetail: z.enum(['auto', 'low', 'high']).optional(),
  /** Extra fields for the request body (top_p, seed, stop, …). */
  extraBody: z.record(z.string(), z.unknown()).optional(),
  /** Append one JSON line per model call (reply, actions, parse error) to this file. */
  transcript: z.string().optional(),
});
export type OpenAiAgentOptions = z.infer<typeof OpenAiAgentOptions>;

export function parseOpenAiAgentOptions(raw: Record<string, unknown>): OpenAiAgentOptions {
  const defined = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined));
  const parsed = OpenAiAgentOptions.safeParse(defined);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ArcadeGymError('INVALID_OPTIONS', `openai agent: ${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`);
  }
  return parsed.data;
}

/**
 * Agent options from `arcade-gym eval` flags: --agent-config file.json, then --model,
 * --base-url, --api-key and --history on top of it.
 */
export function agentOptionsFromCli(values: Record<string, unknown>): Record<string, unknown> {
  const str = (k: string) => (typeof values[k] === 'string' ? (values[k] as string) : undefined);
  let fromFile: Record<string, unknown> = {};
  const file = str('agent-config');
  if (file) {
    try {
      fromFile = z.record(z.string(), z.unknown()).parse(JSON.parse(readFileSync(file, 'utf8')));
    } catch (e) {
      throw new ArcadeGymError('INVALID_OPTIONS', `--agent-config ${file}: ${e instanceof Error ? e.message : e}`);
    }
  }
  const flags = { model: str('model'), baseUrl: str('base-url'), apiKey: str('api-key'), history: str('history') };
  return { ...fromFile, ...Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined)) };
}
