'use client';

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Bar, CartesianGrid, ComposedChart, Line, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { type CatalogEntry, canonicalJson, type EpisodeRecord, type Action } from '../../gym/schema';
import { GamePlayer } from '../player/game-player';
import { GameStage } from '../player/game-stage';
import { frameMismatchCause, type RenderingSettings } from '../player/rendering-settings';

const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16];

function describeAction(game: CatalogEntry, a: Action): string {
  if (typeof a === 'number') return game.manifest.preset[a]?.name ?? `#${a}`;
  switch (a.type) {
    case 'click':
      return `click (${Math.round(a.x)}, ${Math.round(a.y)})`;
    case 'drag':
      return `drag (${a.from.map(Math.round).join(',')}) → (${a.to.map(Math.round).join(',')})`;
    case 'key':
      return `key ${a.key}${a.holdMs ? ` (${a.holdMs} ms)` : ''}`;
    case 'type':
      return `type "${a.text}"`;
    case 'scroll':
      return `scroll ${a.dy ?? 0}`;
    case 'wait':
      return 'wait';
  }
}

type Check = { kind: 'ok' } | { kind: 'mismatch'; step: number; detail: string };

/**
 * Re-simulates a recorded episode in this browser: the game build, runtime and seed of the
 * record, fed its actions. Every step's verifier output is compared with the record, and a
 * mismatch is shown, never hidden.
 */
export function EpisodeReplay({ record, game }: { record: EpisodeRecord; game: CatalogEntry }) {
  const iframeRef = useRef<HTMLIFrameElement>(null);
  const playerRef = useRef<GamePlayer | null>(null);
  const busy = useRef(false);
  const [position, setPosition] = useState(0);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(1);
  const [check, setCheck] = useState<Check>({ kind: 'ok' });
  const [frameHash, setFrameHash] = useState<string | null>(null);
  const [rendering, setRendering] = useState<RenderingSettings | null>(null);
  const total = record.actions.length;
  const m = game.manifest;

  const chartData = useMemo(
    () => [
      { step: 0, score: record.steps.length ? record.steps[0].score - record.steps[0].reward : 0, reward: 0 },
      ...record.steps.map((s) => ({ step: s.step + 1, score: s.score, reward: s.reward })),
    ],
    [record],
  );

  const restart = useCallback(async () => {
    const player = playerRef.current!;
    await player.load({ seed: record.seed, stepBudget: record.stepBudget, msPerStep: record.msPerStep, shaping: record.shaping });
    setPosition(0);
    setFrameHash(null);
  }, [record]);

  /** Steps forward from the current position to `target`, comparing each step with the record. */
  const advanceTo = useCallback(
    async (target: number) => {
      const player = playerRef.current!;
      let at = player.episode.length;
      while (at < target) {
        const out = player.step(record.actions[at]);
        const expected = record.steps[at];
        if (canonicalJson(out.record) !== canonicalJson(expected)) {
          const mismatch: Check = {
            kind: 'mismatch',
            step: at,
            detail: `recorded score ${expected.score}, reward ${expected.reward}; replay gives score ${out.record.score}, reward ${out.record.reward}`,
          };
          setCheck((c) => (c.kind === 'mismatch' && c.step <= mismatch.step ? c : mismatch));
        }
        at++;
        // Keep the page responsive while fast-forwarding long episodes.
        if (at % 100 === 0 && at < target) await new Promise((r) => setTimeout(r, 0));
      }
      setPosition(at);
      setFrameHash(player.frameHash());
      setRendering(player.renderingSettings());
    },
    [record, total],
  );

  const goTo = useCallback(
    async (target: number) => {
      if (busy.current) return;
      busy.current = true;
      try {
        const t = Math.max(0, Math.min(total, target));
        if (t < playerRef.current!.episode.length) await restart();
        await advanceTo(t);
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
        setPlaying(false);
      } finally {
        busy.current = false;
      }
    },
    [advanceTo, restart, total],
  );

  useEffect(() => {
    playerRef.current = new GamePlayer(iframeRef.current!, game);
    restart()
      .then(() => setLoading(false))
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, [game, restart]);

  useEffect(() => {
    if (!playing) return;
    if (position >= total) {
      setPlaying(false);
      return;
    }
    const timer = setTimeout(() => void goTo(position + 1), record.msPerStep / speed);
    return () => clearTimeout(timer);
  }, [playing, position, total, speed, goTo, record.msPerStep]);

  const current = position > 0 ? record.steps[position - 1] : null;
  const frameMatches = frameHash !== null && frameHash === record.finalFrameHash;

  return (
    <div className="replay">
      <GameStage
        className="replay-stage"
        data-frame-hash={frameHash ?? ''}
        data-position={position}
        width={m.canvas.width}
        height={m.canvas.height}
        title={`${m.title} replay`}
        iframeRef={iframeRef}
      />
      {loading && !error && <p className="muted">Loading the game…</p>}
      {error && (
        <p role="alert" style={{ color: 'var(--bad)' }}>
          Replay failed: {error}
        </p>
      )}
      <div className="controls" style={{ display: 'flex', gap: '0.5rem', flexWrap: 'wrap', alignItems: 'center', margin: '0.75rem 0' }}>
        <button type="button" onClick={() => void goTo(0)} disabled={loading} aria-label="Restart">
          Restart
        </button>
        <button type="button" onClick={() => void goTo(position - 1)} disabled={loading || position === 0} aria-label="Step back">
          Back
        </button>
        <button type="button" onClick={() => setPlaying((p) => !p)} disabled={loading || position >= total} aria-label={playing ? 'Pause' : 'Play'}>
          {playing ? 'Pause' : 'Play'}
        </button>
        <button type="button" onClick={() => void goTo(position + 1)} disabled={loading || position >= total} aria-label="Step forward">
          Step
        </button>
        <input
          type="range"
          min={0}
          max={total}
          value={position}
          onChange={(e) => void goTo(Number(e.target.value))}
          disabled={loading}
          aria-label="Scrub"
          style={{ flex: '1 1 200px' }}
        />
        <label>
          Speed{' '}
          <select value={speed} onChange={(e) => setSpeed(Number(e.target.value))} aria-label="Speed">
            {SPEEDS.map((s) => (
              <option key={s} value={s}>
                {s}×
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="card" style={{ display: 'flex', gap: '1.5rem', flexWrap: 'wrap' }}>
        <div>
          Step <strong data-testid="replay-step">{position}</strong> / {total}
        </div>
        <div>
          Score <strong data-testid="replay-score">{current ? current.score : chartData[0].score}</strong>
        </div>
        <div>
          Reward <strong>{current ? current.reward : 0}</strong>
        </div>
        <div>
          Action <strong>{current ? describeAction(game, current.action) : '—'}</strong>
        </div>
        <div data-testid="replay-status">
          {check.kind === 'ok' ? (
            <span className="badge good">matches the record{position > 0 ? ` through step ${position}` : ''}</span>
          ) : (
            <span className="badge" style={{ color: 'var(--bad)', borderColor: 'var(--bad)' }}>
              mismatch at step {check.step}: {check.detail}
            </span>
          )}
        </div>
        {frameHash && position === total && (
          <div data-testid="replay-frame">
            final frame <code data-testid="replay-frame-hash">{frameHash}</code>{' '}
            {frameMatches ? (
              <span className="badge good">same as recorded</span>
            ) : (
              <span className="badge">
                recorded {record.finalFrameHash} ({rendering ? frameMismatchCause(rendering, record) : 'rendering differs'})
              </span>
            )}
          </div>
        )}
      </div>
      <div className="card" style={{ height: 220, marginTop: '0.75rem' }}>
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart
            data={chartData}
            onClick={(e) => {
              const s = (e as { activeLabel?: number | string } | null)?.activeLabel;
              if (s !== undefined) void goTo(Number(s));
            }}
          >
            <CartesianGrid stroke="#30363d" strokeDasharray="3 3" />
            <XAxis dataKey="step" stroke="#8b949e" />
            <YAxis yAxisId="score" stroke="#58a6ff" />
            <YAxis yAxisId="reward" orientation="right" stroke="#3fb950" />
            <Tooltip contentStyle={{ background: '#161b22', border: '1px solid #30363d' }} />
            <Bar yAxisId="reward" dataKey="reward" fill="#3fb950" isAnimationActive={false} />
            <Line yAxisId="score" dataKey="score" stroke="#58a6ff" dot={false} isAnimationActive={false} />
            <ReferenceLine yAxisId="score" x={position} stroke="#f0883e" />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      <details className="card" style={{ marginTop: '0.75rem' }}>
        <summary>Actions ({total})</summary>
        <ol start={0} style={{ maxHeight: 240, overflowY: 'auto', fontSize: '0.85rem' }}>
          {record.steps.map((s) => (
            <li key={s.step} style={{ fontWeight: s.step === position - 1 ? 700 : 400 }}>
              <a
                href="#"
                onClick={(e) => {
                  e.preventDefault();
                  void goTo(s.step + 1);
                }}
              >
                {describeAction(game, s.action)}
              </a>{' '}
              → reward {s.reward}, score {s.score}
              {s.terminated ? ' (game over)' : s.truncated ? ' (budget)' : ''}
            </li>
          ))}
        </ol>
      </details>
    </div>
  );
}
