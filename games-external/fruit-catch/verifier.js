// Verifier for Fruit Catch, in plain JavaScript as a third party might write it. The game's
// top-level `var`s are window properties; its top-level `let level` is not, so it is read
// with an indirect eval, which runs in the page's global scope and sees global let/const.
const globalBinding = (win, name, fallback) => {
  try {
    return (0, win.eval)(`typeof ${name} === 'undefined' ? undefined : ${name}`) ?? fallback;
  } catch {
    return fallback;
  }
};

const NEAREST = 3;

export default {
  gameId: 'fruit-catch',
  read(win) {
    if (typeof win.score !== 'number' || !Array.isArray(win.items)) return null;
    return {
      score: win.score,
      gameOver: win.gameOver === true,
      lives: win.lives,
      level: globalBinding(win, 'level', 1),
      basketX: win.basketX,
      basketY: win.BASKET_Y,
      basketWidth: win.BASKET_W,
      width: win.W,
      height: win.H,
      items: win.items.map((it) => ({ x: it.x, y: it.y, vy: it.vy, kind: it.kind })),
    };
  },
  features: {
    names: ['basket_x', 'lives', 'level', ...Array.from({ length: NEAREST }, (_, i) => [`item${i}_dx`, `item${i}_y`, `item${i}_bomb`]).flat()],
    encode(s) {
      // The items closest to the basket line first; absent ones are zeros.
      const lowest = [...s.items].sort((a, b) => b.y - a.y).slice(0, NEAREST);
      const out = [s.basketX / s.width, s.lives, s.level];
      for (let i = 0; i < NEAREST; i++) {
        const it = lowest[i];
        out.push(it ? (it.x - s.basketX) / s.width : 0, it ? it.y / s.height : 0, it && it.kind === 'bomb' ? 1 : 0);
      }
      return out;
    },
  },
};
