'use client';

import { useEffect, useRef } from 'react';
import type { CatalogEntry } from '../gym/schema';
import { GamePlayer } from './player/game-player';

/**
 * A game playing itself: random preset actions in virtual time, in real time, only while the
 * thumbnail is on screen (so a gallery of many games costs little).
 */
export function LiveThumbnail({ game, width = 240 }: { game: CatalogEntry; width?: number }) {
  const frameRef = useRef<HTMLIFrameElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const m = game.manifest;
  const scale = width / m.canvas.width;

  useEffect(() => {
    const player = new GamePlayer(frameRef.current!, game);
    let visible = false;
    let running = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let seed = 1;
    const settings = () => ({ seed, stepBudget: m.stepBudget, msPerStep: m.msPerStep, shaping: { perStep: 0, terminal: 0 } });
    const tick = () => {
      if (!visible) {
        running = false;
        return;
      }
      try {
        const out = player.step(Math.floor(Math.random() * m.preset.length));
        if (out.done) {
          seed++;
          void player.load(settings()).then(() => (timer = setTimeout(tick, m.msPerStep)));
          return;
        }
      } catch {
        running = false;
        return;
      }
      timer = setTimeout(tick, Math.max(50, m.msPerStep));
    };
    const observer = new IntersectionObserver(([entry]) => {
      visible = entry.isIntersecting;
      if (visible && !running) {
        running = true;
        const started = player.initialState ? Promise.resolve() : player.load(settings()).then(() => undefined);
        void started.then(tick, () => (running = false));
      }
    });
    observer.observe(boxRef.current!);
    return () => {
      observer.disconnect();
      visible = false;
      clearTimeout(timer);
    };
  }, [game, m]);

  return (
    <div ref={boxRef} style={{ width, height: m.canvas.height * scale, overflow: 'hidden', borderRadius: 6, background: '#000' }} aria-hidden>
      <iframe
        ref={frameRef}
        title={`${m.title} preview`}
        tabIndex={-1}
        width={m.canvas.width}
        height={m.canvas.height}
        style={{ border: 0, transform: `scale(${scale})`, transformOrigin: '0 0', pointerEvents: 'none' }}
      />
    </div>
  );
}
