/**
 * Verifier for Mole Bop, a third-party-style DOM game: everything is read from the page's
 * text and classes, since the game keeps no state object. Self-contained (type imports only)
 * so `arcade-gym add-game` can bundle it from anywhere.
 */
import type { Verifier } from '../../verifiers/define';

/** 0 down, 1 rising, 2 up and boppable, 3 bopped (falling). */
export type HoleState = 0 | 1 | 2 | 3;

export interface MoleBopState {
  score: number;
  gameOver: boolean;
  level: number;
  lives: number;
  holes: HoleState[];
  [key: string]: unknown;
}

const intText = (doc: Document, id: string): number | null => {
  const el = doc.getElementById(id);
  const n = el ? parseInt(el.textContent ?? '', 10) : NaN;
  return Number.isFinite(n) ? n : null;
};

const verifier: Verifier<MoleBopState> = {
  gameId: 'mole-bop',
  read(win) {
    const doc = win.document;
    const score = intText(doc, 'score');
    const level = intText(doc, 'level');
    const lives = intText(doc, 'lives');
    if (score === null || level === null || lives === null) return null;
    const holes = Array.from(doc.querySelectorAll('#board .hole .mole'), (m): HoleState =>
      m.classList.contains('bonk') ? 3 : m.classList.contains('ready') ? 2 : m.classList.contains('up') ? 1 : 0,
    );
    return { score, level, lives, gameOver: doc.getElementById('status')?.textContent === 'Game over', holes };
  },
  features: {
    names: [...Array.from({ length: 9 }, (_, i) => `hole${i + 1}_ready`), ...Array.from({ length: 9 }, (_, i) => `hole${i + 1}_rising`), 'lives', 'level'],
    encode: (s) => [...s.holes.map((h) => (h === 2 ? 1 : 0)), ...s.holes.map((h) => (h === 1 ? 1 : 0)), s.lives, s.level],
  },
};
export default verifier;
