import { appendFileSync } from 'node:fs';
import { ArcadeGymError } from '../errors';
import type { GuiAction } from '../schema/action';
import type { GameManifest } from '../schema/manifest';
import type { Agent, AgentContext, AgentTurn } from './agent';
import { postChatCompletion } from './ui-tars/chat-client';
import { Conversation } from './ui-tars/conversation';
import { parseOpenAiAgentOptions } from './ui-tars/options';
import { parseReply, ReplyParseError } from './ui-tars/parse';
import { DEFAULT_SYSTEM_PROMPT, renderPrompt } from './ui-tars/prompt';
import { imageSize, toGuiActions } from './ui-tars/to-gui-action';

/**
 * A vision-language model as an agent, through any OpenAI-compatible chat-completions
 * endpoint: each step it sends the screenshot (with the last few turns for context), reads a
 * UI-TARS-style "Thought: … Action: …" reply and plays the action in game coordinates.
 *
 * - A reply it cannot parse (or an action the GUI vocabulary cannot express) becomes `wait`;
 *   the error is counted (stats().parseErrors), written to the transcript and told to the
 *   model with the next screenshot.
 * - A reply with several actions plays them on consecutive steps without asking the model.
 * - finished() ends the agent's play, not the episode: the env's episode ends only by the
 *   game (terminated) or the step budget (truncated), as for every agent, so the agent
 *   answers `wait` for the remaining steps without calling the model, and its score is what
 *   the game gives for that. Episode records stay comparable across agents.
 * - An API failure (after retries) is an error that stops the evaluation: a silent `wait`
 *   would pass off a broken endpoint as a bad player.
 */
export interface OpenAiAgent extends Agent {
  stats(): Record<string, number>;
  /** The last model call, for debugging and tests. */
  readonly lastTurn: TurnLog | null;
}

export interface TurnLog {
  seed: number;
  step: number;
  reply: string;
  thought: string | null;
  actions: GuiAction[];
  error: string | null;
  finished: boolean;
  attempts: number;
}

const WAIT: GuiAction = { type: 'wait' };

export function createOpenAiAgent(raw: Record<string, unknown>): OpenAiAgent {
  const opts = parseOpenAiAgentOptions(raw);
  const apiKey = opts.apiKey ?? process.env.OPENAI_API_KEY;
  const conversation = new Conversation(opts.history, opts.imageDetail);
  const counters = { modelCalls: 0, parseErrors: 0, retries: 0, promptTokens: 0, completionTokens: 0, finishedEpisodes: 0 };
  let manifest: GameManifest | null = null;
  let seed = 0;
  let system = '';
  let queue: GuiAction[] = [];
  let finished = false;
  let feedback = '';
  let lastTurn: TurnLog | null = null;

  const agent: OpenAiAgent = {
    name: 'openai',
    observation: ['screenshot'],
    get lastTurn() {
      return lastTurn;
    },
    stats: () => ({ ...counters }),

    reset(ctx: AgentContext) {
      manifest = ctx.manifest;
      seed = ctx.seed;
      system = renderPrompt(opts.systemPrompt ?? DEFAULT_SYSTEM_PROMPT, manifest, { mode: opts.coordinates, stepBudget: manifest.stepBudget });
      conversation.reset();
      queue = [];
      finished = false;
      feedback = '';
    },

    async act(turn: AgentTurn) {
      if (!manifest) throw new ArcadeGymError('RESET_NEEDED', 'openai agent: act() before reset()');
      if (queue.length) return queue.shift()!;
      if (finished) return WAIT;
      const shot = turn.observation.screenshot;
      if (!shot) {
        throw new ArcadeGymError(
          'INVALID_OPTIONS',
          'the openai agent needs screenshot observations: make the env with observation including "screenshot" (arcade-gym eval asks for it)',
        );
      }
      const size = imageSize(shot);
      if (!size) throw new ArcadeGymError('INVALID_OPTIONS', 'openai agent: the screenshot is neither PNG nor JPEG');
      const mime = shot[0] === 0x89 ? 'image/png' : 'image/jpeg';
      const imageUrl = `data:${mime};base64,${Buffer.from(shot).toString('base64')}`;
      const note = `Step ${turn.step + 1} of ${manifest.stepBudget}.${feedback ? ` ${feedback}` : ''}`;

      const reply = await postChatCompletion(
        { baseUrl: opts.baseUrl, apiKey, timeoutMs: opts.timeoutMs, retries: opts.retries, retryDelayMs: opts.retryDelayMs },
        {
          ...opts.extraBody,
          model: opts.model,
          messages: conversation.messages(system, note, imageUrl),
          temperature: opts.temperature,
          max_tokens: opts.maxTokens,
        },
      );
      counters.modelCalls++;
      counters.retries += reply.attempts - 1;
      counters.promptTokens += reply.usage.promptTokens;
      counters.completionTokens += reply.usage.completionTokens;

      const space = { canvas: manifest.canvas, image: size, mode: opts.coordinates, scrollPx: opts.scrollAmount };
      let actions: GuiAction[] = [];
      let thought: string | null = null;
      let error: string | null = null;
      let done = false;
      try {
        const parsed = parseReply(reply.text);
        thought = parsed.thought;
        for (const a of parsed.actions) {
          if (a.type === 'finished') done = true;
          else if (a.type === 'call_user') throw new ReplyParseError('call_user(): nobody can be called during an episode; play on or use finished()');
          else actions.push(...toGuiActions(a, space));
        }
      } catch (e) {
        if (!(e instanceof ReplyParseError)) throw e;
        error = e.message;
        actions = [];
        done = false;
        counters.parseErrors++;
      }
      feedback = error ? `Your last reply could not be used (${error}). Answer with "Thought: ..." and then one "Action: ..." from the action space.` : '';
      conversation.record(note, imageUrl, reply.text);
      if (done) {
        finished = true;
        counters.finishedEpisodes++;
      }
      lastTurn = { seed, step: turn.step, reply: reply.text, thought, actions, error, finished: done, attempts: reply.attempts };
      if (opts.transcript) appendFileSync(opts.transcript, `${JSON.stringify({ model: opts.model, ...lastTurn })}\n`);
      if (actions.length === 0) return WAIT;
      queue = actions.slice(1);
      return actions[0];
    },
  };
  return agent;
}
