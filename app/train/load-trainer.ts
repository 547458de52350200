import type * as Trainer from '../../gym/browser-train';

/** Built by `npm run build:games` (gym/build/trainer-bundle.ts) and served from public/. */
export const TRAINER_SCRIPT = '/trainer/arcade-trainer.js';

let loading: Promise<typeof Trainer> | null = null;

/** Loads the in-page trainer once (a plain script: it sets globalThis.ArcadeTrainer). */
export function loadTrainer(): Promise<typeof Trainer> {
  const g = globalThis as { ArcadeTrainer?: typeof Trainer };
  if (g.ArcadeTrainer) return Promise.resolve(g.ArcadeTrainer);
  loading ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = TRAINER_SCRIPT;
    script.onload = () => (g.ArcadeTrainer ? resolve(g.ArcadeTrainer) : reject(new Error(`${TRAINER_SCRIPT} did not define ArcadeTrainer`)));
    script.onerror = () => {
      loading = null;
      reject(new Error(`${TRAINER_SCRIPT} could not be loaded (run npm run build:games)`));
    };
    document.head.appendChild(script);
  });
  return loading;
}
