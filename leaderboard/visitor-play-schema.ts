/** The bodies of human reference play by visitors (visitor-play.ts) and of an admin's decision on a player (human-player-api.ts). */
import { z } from 'zod';
import { EpisodeRecord } from '../gym/schema';
import { AgentName } from './submission-schema';

const PlayerKey = z.string().regex(/^hpk_[A-Za-z0-9_-]{32}$/, 'the key this browser was given when the name was registered');

export const VisitorTicketRequest = z.strictObject({
  game: z.string().min(1).max(64),
  player: AgentName,
  playerKey: PlayerKey.optional(),
});

export const VisitorRunRequest = z.strictObject({
  ticket: z.string().min(1).max(64),
  player: AgentName,
  playerKey: PlayerKey,
  episode: EpisodeRecord,
});

export const HumanPlayerDecision = z.strictObject({ name: z.string().min(1).max(64), status: z.enum(['accepted', 'rejected']) });
