import { defineVerifier } from './define';
import { readGlobal } from './read-global';

interface SortGlobals {
  level: number;
  kinds: number;
  tubes: number[][];
  selected: number;
  moves: number;
  moveLimit: number;
  par: number;
  completed: boolean[];
  score: number;
  solved: number;
  gameOver: boolean;
}

export interface EmojiSortVerifierState {
  score: number;
  gameOver: boolean;
  level: number;
  /** Levels sorted so far. */
  solved: number;
  /** Kinds of face on this level (each has exactly `capacity` items). */
  kinds: number;
  capacity: number;
  /** Items of each tube, bottom first (kind 0..5). */
  tubes: number[][];
  /** Tube picked up by the first click of a move, or -1. */
  selected: number;
  moves: number;
  moveLimit: number;
  /** Moves of the solver's solution when the level was dealt. */
  par: number;
  /** Kinds already gathered in a full tube this level. */
  completedKinds: number;
  [key: string]: unknown;
}

const TUBES = 8;
const CAP = 4;

export default defineVerifier<EmojiSortVerifierState>({
  gameId: 'emoji-sort',
  read: readGlobal('emojiSort', (s: SortGlobals) => ({
    score: s.score,
    gameOver: s.gameOver,
    level: s.level,
    solved: s.solved,
    kinds: s.kinds,
    capacity: CAP,
    tubes: s.tubes.map((t) => t.slice()),
    selected: s.selected,
    moves: s.moves,
    moveLimit: s.moveLimit,
    par: s.par,
    completedKinds: s.completed.filter(Boolean).length,
  })),
  features: {
    names: [
      ...Array.from({ length: TUBES * CAP }, (_, i) => `tube_${Math.floor(i / CAP)}_slot_${i % CAP}`),
      ...Array.from({ length: TUBES }, (_, i) => `selected_${i}`),
      'moves_left',
      'level',
      'kinds',
    ],
    encode(s) {
      const out: number[] = [];
      for (let t = 0; t < TUBES; t++) for (let k = 0; k < CAP; k++) out.push(((s.tubes[t]?.[k] ?? -1) + 1) / 6);
      for (let t = 0; t < TUBES; t++) out.push(s.selected === t ? 1 : 0);
      out.push((s.moveLimit - s.moves) / 30, s.level / 10, s.kinds / 6);
      return out;
    },
  },
  // The preset's 56 drags, tube a onto tube b (a by a, b ≠ a in order). With nothing picked up, a
  // drag pours when the game's rule allows it and otherwise puts the faces back, leaving the game
  // as it was. Once a click has picked faces up, every drag does something (its press is a click).
  actionMask: (s) => {
    const mask: number[] = [];
    for (let a = 0; a < TUBES; a++) for (let b = 0; b < TUBES; b++) if (a !== b) mask.push(s.selected >= 0 || canPour(s.tubes, a, b) ? 1 : 0);
    return mask;
  },
});

/** The game's pour rule (games/emoji-sort/logic.ts canMove): faces onto the same face or into an empty tube, with room. */
function canPour(tubes: readonly (readonly number[])[], from: number, to: number): boolean {
  const a = tubes[from] ?? [];
  const b = tubes[to] ?? [];
  if (!a.length || b.length >= CAP) return false;
  return !b.length || b[b.length - 1] === a[a.length - 1];
}
