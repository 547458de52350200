'use client';

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { CatalogEntry } from '../../gym/schema';
import type * as Trainer from '../../gym/browser-train';
import type { BrowserTrainingRun, RunChoices } from '../../gym/browser-train';
import type { UpdateMetrics } from '../../gym/ppo';
import '../components/board.css';
import './train.css';
import { LearningCurve } from '../components/learning-curve';
import { loadTrainer } from './load-trainer';
import { prepareOffline } from './offline';
import { SubmitPanel } from './submit-panel';

type Phase = 'idle' | 'running' | 'paused' | 'stopping' | 'finished' | 'failed';

/** The live numbers, each with the test id e2e tests read it by. */
const LIVE: { key: keyof UpdateMetrics; label: string; digits: number }[] = [
  { key: 'globalStep', label: 'env steps', digits: 0 },
  { key: 'update', label: 'update', digits: 0 },
  { key: 'stepsPerSec', label: 'steps/s', digits: 0 },
  { key: 'episodeReturnMean', label: 'episode return', digits: 2 },
  { key: 'episodeLengthMean', label: 'episode length', digits: 1 },
  { key: 'policyLoss', label: 'policy loss', digits: 4 },
  { key: 'valueLoss', label: 'value loss', digits: 4 },
  { key: 'entropy', label: 'entropy', digits: 3 },
  { key: 'approxKl', label: 'approx. KL', digits: 4 },
  { key: 'clipFracLow', label: 'clip fraction low', digits: 3 },
  { key: 'clipFracHigh', label: 'clip fraction high', digits: 3 },
  { key: 'explainedVariance', label: 'explained variance', digits: 3 },
];

function download(name: string, data: Uint8Array | string, type: string): void {
  const url = URL.createObjectURL(new Blob([data as BlobPart], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * /train/<id>: PPO in the visitor's browser. The trainer bundle (gym/browser-train) runs
 * gym/ppo's train() on frames of this page; this view only sets it up, shows it and saves files.
 */
export function TrainView({ id, game, preset, presetPath }: { id: string; game: CatalogEntry | null; preset: unknown; presetPath: string | null }) {
  const [api, setApi] = useState<typeof Trainer | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [choices, setChoices] = useState<RunChoices>(() => (game ? {} : { totalTimesteps: 20_000, numEnvs: 4 }));
  const [configText, setConfigText] = useState('');
  const [phase, setPhase] = useState<Phase>('idle');
  const [metrics, setMetrics] = useState<UpdateMetrics[]>([]);
  const [backend, setBackend] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [hidden, setHidden] = useState(false);
  const [offline, setOffline] = useState<'preparing' | 'ready' | 'unavailable'>('preparing');
  const [files, setFiles] = useState<{ checkpoint: Uint8Array | null; policy: Uint8Array | null } | null>(null);
  const runRef = useRef<BrowserTrainingRun | null>(null);
  const framesRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    loadTrainer().then(setApi, (e: unknown) => setLoadError(e instanceof Error ? e.message : String(e)));
  }, []);

  useEffect(() => {
    prepareOffline(game).then(
      (ok) => setOffline(ok ? 'ready' : 'unavailable'),
      () => setOffline('unavailable'),
    );
  }, [game]);

  useEffect(() => {
    const onVisibility = () => setHidden(document.visibilityState === 'hidden');
    onVisibility();
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, []);

  // The settings the run will use, resolved as `arcade-gym train` resolves its flags.
  const resolved = useMemo(() => {
    if (!api) return null;
    try {
      // What `--config ppo.json` would hold: PPO settings over the preset's.
      const config = configText.trim() ? (JSON.parse(configText) as Record<string, unknown>) : undefined;
      const withConfig = { ...choices, config };
      const settings = game
        ? api.resolveRunSettings(id, preset, presetPath, withConfig)
        : api.resolveRunSettings('cartpole', { ppo: { numSteps: 128 } }, null, withConfig);
      return { settings, problem: null };
    } catch (e) {
      return { settings: null, problem: e instanceof Error ? e.message : String(e) };
    }
  }, [api, game, id, preset, presetPath, choices, configText]);

  const start = useCallback(() => {
    if (!api || !resolved?.settings) return;
    framesRef.current!.replaceChildren();
    setMetrics([]);
    setFiles(null);
    setError(null);
    setBackend(null);
    setPhase('running');
    runRef.current = null;
    const failed = (e: unknown) => {
      setPhase('failed');
      setError(e instanceof Error ? e.message : String(e));
    };
    // A game-specific preset's run first loads the game's decisions script: starting is asynchronous.
    api.BrowserTrainingRun.start({
      settings: resolved.settings,
      game,
      container: framesRef.current!,
      backend: choices.backend ?? 'auto',
      onUpdate: (m) => {
        setMetrics((prev) => [...prev, m]);
        const r = runRef.current;
        if (r) setFiles({ checkpoint: r.writer.checkpointFile, policy: r.writer.policyFile });
      },
    }).then((run) => {
      runRef.current = run;
      // Only the instance on show draws; painting changes no game state.
      run.frames[0]?.setPaint(true);
      const backendLabel = setInterval(() => {
        if (!run.backend) return;
        setBackend(run.backend.kind === 'webgpu' ? `WebGPU: ${run.backend.info}` : `CPU: ${run.backendNotice ? 'WebGPU unavailable' : 'chosen'}`);
        clearInterval(backendLabel);
      }, 50);
      run.done.then(() => {
        setPhase('finished');
        setFiles({ checkpoint: run.writer.checkpointFile, policy: run.writer.policyFile });
      }, failed);
    }, failed);
  }, [api, resolved, game, choices.backend]);

  useEffect(() => () => runRef.current?.stop(), []);

  const run = runRef.current;
  const last = metrics.at(-1);
  const curve = metrics.filter((m) => m.episodeReturnMean !== null).map((m) => ({ step: m.globalStep, meanReturn: m.episodeReturnMean! }));
  const busy = phase === 'running' || phase === 'paused' || phase === 'stopping';
  const cfg = resolved?.settings;
  const number = (key: keyof RunChoices) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setChoices((c) => ({ ...c, [key]: e.target.value === '' ? undefined : Number(e.target.value) }));

  /** A button that tells the run to pause, resume or stop, and shows the phase that follows. */
  const control = (label: string, act: () => void, next: Phase, enabled: boolean) => (
    <button
      type="button"
      onClick={() => {
        act();
        setPhase(next);
      }}
      disabled={!enabled}
    >
      {label}
    </button>
  );

  return (
    <div>
      {loadError && <p className="error">The trainer did not load: {loadError}</p>}
      <div className="card" style={{ marginBottom: '0.75rem' }}>
        <h2 style={{ marginTop: 0 }}>Preset</h2>
        <p className="muted" data-testid="preset-source">
          {presetPath
            ? `${presetPath} (the game's preset, as arcade-gym train uses it)`
            : 'no preset: the generic agent (gym/ppo/generic-agent.ts), as arcade-gym train uses it'}
        </p>
        {cfg && (
          <p data-testid="preset-summary">
            {cfg.command.numEnvs} instances × {String(cfg.ppo.numSteps)} steps per rollout, {String(cfg.command.totalTimesteps)} steps, lr{' '}
            {String(cfg.ppo.learningRate)}, γ {String(cfg.ppo.gamma)}, seed {cfg.command.seed}
          </p>
        )}
        {cfg && api?.gameSpecificActions(cfg.command.actions) && (
          <p className="muted" data-testid="game-specific">
            game-specific: the policy acts through this game's own decisions ({JSON.stringify(cfg.command.actions)}), not only its keys and the verifier's
            features; a submitted run is labelled so.
          </p>
        )}
        {resolved?.problem && <p className="error">{resolved.problem}</p>}
        <div style={{ display: 'flex', gap: '1rem', flexWrap: 'wrap', alignItems: 'end' }}>
          <label>
            steps{' '}
            <input
              type="number"
              min={1}
              name="steps"
              value={choices.totalTimesteps ?? ''}
              placeholder={String(cfg?.command.totalTimesteps ?? '')}
              onChange={number('totalTimesteps')}
              disabled={busy}
            />
          </label>
          <label>
            instances{' '}
            <input
              type="number"
              min={1}
              max={64}
              name="envs"
              value={choices.numEnvs ?? ''}
              placeholder={String(cfg?.command.numEnvs ?? '')}
              onChange={number('numEnvs')}
              disabled={busy}
            />
          </label>
          <label>
            seed{' '}
            <input
              type="number"
              min={0}
              name="seed"
              value={choices.seed ?? ''}
              placeholder={String(cfg?.command.seed ?? '')}
              onChange={number('seed')}
              disabled={busy}
            />
          </label>
          <label>
            backend{' '}
            <select
              name="backend"
              value={choices.backend ?? 'auto'}
              onChange={(e) => setChoices((c) => ({ ...c, backend: e.target.value as RunChoices['backend'] }))}
              disabled={busy}
            >
              <option value="auto">auto (WebGPU when present)</option>
              <option value="webgpu">WebGPU</option>
              <option value="cpu">CPU</option>
            </select>
          </label>
        </div>
        <label style={{ display: 'block', marginTop: '0.5rem' }}>
          config overrides{' '}
          <input
            name="config"
            style={{ width: '100%', fontFamily: 'monospace' }}
            placeholder='PPO settings as JSON, as --config ppo.json holds them, e.g. {"learningRate": 0.003}'
            value={configText}
            onChange={(e) => setConfigText(e.target.value)}
            disabled={busy}
          />
        </label>
        <div style={{ display: 'flex', gap: '0.5rem', marginTop: '0.75rem' }}>
          <button type="button" onClick={start} disabled={!cfg || busy}>
            Train
          </button>
          {control('Pause', () => run?.pause(), 'paused', phase === 'running')}
          {control('Resume', () => run?.resume(), 'running', phase === 'paused')}
          {control('Stop', () => run?.stop(), 'stopping', busy && phase !== 'stopping')}
        </div>
      </div>

      <div className="card" style={{ marginBottom: '0.75rem' }}>
        <p>
          status: <strong data-testid="train-status">{phase}</strong> · backend:{' '}
          <span data-testid="backend">{backend ?? (busy ? 'starting…' : 'not started')}</span>
        </p>
        <p className="muted" data-testid="offline">
          {offline === 'ready'
            ? 'Ready to train offline: the game files are kept in this browser.'
            : offline === 'preparing'
              ? 'Keeping the game files for offline training…'
              : 'Offline training is unavailable in this browser (no service workers).'}
        </p>
        {busy && (
          <p className={hidden ? 'error' : 'muted'} data-testid="visibility">
            {hidden
              ? 'This tab is hidden: the browser may throttle it, and training slows down or waits until you come back.'
              : 'Training runs while this tab is visible.'}
          </p>
        )}
        {error && (
          <p className="error" data-testid="train-error">
            {error}
          </p>
        )}
        <div className="train-live">
          <table className="lb-table">
            <tbody>
              {LIVE.map(({ key, label, digits }) => {
                const v = last?.[key];
                return (
                  <tr key={key}>
                    <td>{label}</td>
                    <td data-testid={`metric-${key}`}>{typeof v === 'number' ? v.toFixed(digits) : '—'}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {game && (
            <div>
              <p className="muted">instance 0, live</p>
              <div
                ref={framesRef}
                className="train-frames"
                data-testid="train-frames"
                style={{ width: game.manifest.canvas.width, height: game.manifest.canvas.height }}
              />
            </div>
          )}
          {!game && <div ref={framesRef} hidden />}
        </div>
        {curve.length > 0 && <LearningCurve points={curve} />}
      </div>

      <div className="card" style={{ marginBottom: '0.75rem' }}>
        <h2 style={{ marginTop: 0 }}>Files</h2>
        <p className="muted">The same files as arcade-gym train writes; `arcade-gym eval --agent ppo --checkpoint policy.agckpt` loads the policy.</p>
        <div style={{ display: 'flex', gap: '0.5rem' }}>
          <button type="button" disabled={!files?.checkpoint} onClick={() => download('checkpoint.agckpt', files!.checkpoint!, 'application/octet-stream')}>
            checkpoint.agckpt
          </button>
          <button type="button" disabled={!files?.policy} onClick={() => download('policy.agckpt', files!.policy!, 'application/octet-stream')}>
            policy.agckpt
          </button>
          <button
            type="button"
            disabled={!run || metrics.length === 0}
            onClick={() => download('metrics.jsonl', run!.writer.metricsJsonl(), 'application/x-ndjson')}
          >
            metrics.jsonl
          </button>
        </div>
      </div>

      {game && api && phase === 'finished' && run && <SubmitPanel api={api} game={game} run={run} curve={curve} />}
    </div>
  );
}
