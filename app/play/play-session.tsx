'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import type { CatalogEntry, Action, GuiAction, EpisodeRecord } from '../../gym/schema';
import { GamePlayer } from '../player/game-player';
import { GameStage } from '../player/game-stage';
import { settledSubmission, type SubmissionAnswer } from '../components/settled-submission';

/** The preset entry a person's input corresponds to, so records use the same indices as agents. */
function presetIndexFor(game: CatalogEntry, action: GuiAction): number | null {
  const i = game.manifest.preset.findIndex((p) => {
    const a = p.action;
    if (a.type === 'key' && action.type === 'key') return a.key.toLowerCase() === action.key.toLowerCase();
    if (a.type === 'click' && action.type === 'click') return Math.hypot(a.x - action.x, a.y - action.y) <= 12;
    return false;
  });
  return i >= 0 ? i : null;
}

const IGNORED_KEYS = new Set(['Shift', 'Control', 'Alt', 'Meta', 'Tab', 'CapsLock']);

/**
 * A person plays under the gym's rules: seeded, one input = one step of the game's virtual
 * milliseconds, the same step budget, and the same verifier and records as an agent.
 */
export function PlaySession({ game }: { game: CatalogEntry }) {
  const m = game.manifest;
  const iframeRef = useRef<HTMLIFrameElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const playerRef = useRef<GamePlayer | null>(null);
  const pointerStart = useRef<{ x: number; y: number } | null>(null);
  const [seed, setSeed] = useState<number | null>(null);
  const [status, setStatus] = useState<'loading' | 'playing' | 'over' | 'error'>('loading');
  const [error, setError] = useState<string | null>(null);
  const [step, setStep] = useState(0);
  const [score, setScore] = useState(0);
  const [record, setRecord] = useState<EpisodeRecord | null>(null);
  const [submit, setSubmit] = useState<{ state: 'idle' | 'sending' | 'done' | 'failed'; message?: string }>({ state: 'idle' });
  /**
   * A ticket for reference play: a seed the server drew (only ticketed play can become the
   * reference). A visitor's (no token) is for a player name, whose key this browser keeps.
   */
  const [ticket, setTicket] = useState<{ id: string; seed: number; player: string; token: string | null; playerStatus: string | null } | null>(null);
  const [ticketError, setTicketError] = useState<string | null>(null);

  const start = useCallback(
    async (s: number) => {
      setStatus('loading');
      setRecord(null);
      setSubmit({ state: 'idle' });
      try {
        const player = playerRef.current!;
        const state = await player.load({ seed: s, stepBudget: m.stepBudget, msPerStep: m.msPerStep, shaping: { perStep: 0, terminal: 0 } });
        setSeed(s);
        setStep(0);
        setScore(state.score);
        setStatus('playing');
        stageRef.current?.focus();
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
        setStatus('error');
      }
    },
    [m],
  );

  useEffect(() => {
    playerRef.current = new GamePlayer(iframeRef.current!, game);
    const fromUrl = Number(new URLSearchParams(window.location.search).get('seed'));
    void start(Number.isInteger(fromUrl) && fromUrl >= 0 && fromUrl < 2 ** 32 ? fromUrl : Math.floor(Math.random() * 1_000_000));
  }, [game, start]);

  const act = useCallback(
    (action: Action) => {
      const player = playerRef.current;
      if (!player || status !== 'playing') return;
      const out = player.step(action);
      setStep(player.episode.length);
      setScore(out.record.score);
      if (out.done) {
        // The settings the game page really had, so a replay elsewhere can tell what differs.
        setRecord(player.episode.episodeRecord({ ...player.renderingSettings(), finalFrameHash: player.frameHash() }));
        setStatus('over');
      }
    },
    [status, m],
  );

  const gui = useCallback(
    (action: GuiAction) => {
      const index = presetIndexFor(game, action);
      act(index ?? action);
    },
    [act, game],
  );

  // Keyboard-only games take a tap or click as focusing the game, not as a move.
  const usesPointer = m.preset.some((p) => p.action.type === 'click' || p.action.type === 'drag' || p.action.type === 'scroll');

  const toGame = (e: React.PointerEvent) => {
    const r = stageRef.current!.getBoundingClientRect();
    return { x: ((e.clientX - r.left) * m.canvas.width) / r.width, y: ((e.clientY - r.top) * m.canvas.height) / r.height };
  };

  // Reference play starts from a ticket, like an agent's evaluation: the server draws the seed.
  // Anyone may play under a name of their own (their play counts once an admin accepts them);
  // an admin token's play counts at once.
  const getTicket = async (form: HTMLFormElement) => {
    const data = new FormData(form);
    const player = String(data.get('player') ?? '').trim();
    const token = String(data.get('token') ?? '').trim();
    setTicketError(null);
    try {
      type Answer = {
        error?: { message?: string };
        ticket?: { id: string; games: { seeds: number[] }[] };
        player?: { name: string; status: string };
        playerKey?: string;
      };
      const keyName = `arcade-gym:player-key:${player.toLowerCase()}`;
      const res = token
        ? await fetch('/api/tickets', {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify({ game: m.id, purpose: 'human' }),
          })
        : await fetch('/api/play/tickets', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ game: m.id, player, ...(localStorage.getItem(keyName) ? { playerKey: localStorage.getItem(keyName) } : {}) }),
          });
      const body = (await res.json().catch(() => ({}))) as Answer;
      if (!res.ok || !body.ticket) throw new Error(body.error?.message ?? `${res.status} ${res.statusText}`);
      if (body.playerKey) localStorage.setItem(keyName, body.playerKey);
      const seed = body.ticket.games[0].seeds[0];
      setTicket({ id: body.ticket.id, seed, player: body.player?.name ?? player, token: token || null, playerStatus: body.player?.status ?? null });
      await start(seed);
    } catch (e) {
      setTicketError(e instanceof Error ? e.message : String(e));
    }
  };

  /** Waits out the server's replay of a submitted run: its status document, once settled. */
  type Status = SubmissionAnswer & {
    result?: { episodes: { verification: string; ranked: boolean; unrankedReason: string | null }[] };
  };
  const settle = async (res: Response): Promise<Status> => {
    const first = (await res.json().catch(() => ({}))) as Status;
    if (!res.ok) throw new Error(first.error?.message ?? `${res.status} ${res.statusText}`);
    const body = await settledSubmission(first);
    if (body.error || body.submission?.status !== 'accepted') throw new Error(body.error?.message ?? `verification ${body.submission?.status ?? 'failed'}`);
    return body;
  };

  // A human reference is a run of kind "human": the server re-simulates the episode like any
  // agent's before it counts (202, then its status URL says how it went).
  const submitReference = async (form: HTMLFormElement) => {
    const data = new FormData(form);
    const name = (
      ticket?.player ??
      String(data.get('name') ?? '')
        .trim()
        .replace(/[^A-Za-z0-9._-]+/g, '-')
        .replace(/^[^A-Za-z0-9]+/, '')
    ).slice(0, 64);
    if (!name) {
      setSubmit({ state: 'failed', message: 'a name of letters or digits is needed' });
      return;
    }
    setSubmit({ state: 'sending' });
    try {
      const onTicket = ticket && ticket.seed === record!.seed ? ticket : null;
      const visitor = onTicket && onTicket.token === null;
      const res = visitor
        ? await fetch('/api/play/runs', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              ticket: onTicket.id,
              player: name,
              playerKey: localStorage.getItem(`arcade-gym:player-key:${name.toLowerCase()}`),
              episode: record,
            }),
          })
        : await fetch('/api/runs', {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${data.get('token') || onTicket?.token}` },
            body: JSON.stringify({
              id: `play-${m.id}-${record!.seed}-${crypto.randomUUID()}`,
              agent: name,
              kind: 'human',
              settings: { observation: ['screenshot'], harness: 'play-mode' },
              ...(onTicket ? { ticket: onTicket.id } : {}),
              episodes: [record],
            }),
          });
      const body = await settle(res);
      const episode = body.result?.episodes[0];
      const counted = visitor && onTicket.playerStatus !== 'accepted' ? '; it counts for the reference once an admin accepts you as a player' : '';
      setSubmit({
        state: 'done',
        message: episode ? `${episode.verification}, ${episode.ranked ? 'ticketed and ranked' : `not ranked: ${episode.unrankedReason}`}${counted}` : 'stored',
      });
    } catch (e) {
      setSubmit({ state: 'failed', message: e instanceof Error ? e.message : String(e) });
    }
  };
  return (
    <div>
      <div className="card" style={{ display: 'flex', gap: '1.5rem', flexWrap: 'wrap', marginBottom: '0.75rem' }}>
        <div>
          Seed <strong data-testid="play-seed">{seed ?? '…'}</strong>
        </div>
        <div>
          Step <strong data-testid="play-step">{step}</strong> / {m.stepBudget}
        </div>
        <div>
          Score <strong data-testid="play-score">{score}</strong>
        </div>
        <div data-testid="play-status">
          {status === 'over' ? 'Episode over' : status === 'playing' ? 'Your move' : status === 'error' ? 'Error' : 'Loading…'}
        </div>
      </div>
      {error && (
        <p role="alert" style={{ color: 'var(--bad)' }}>
          {error}
        </p>
      )}
      {!ticket && status !== 'over' ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void getTicket(e.currentTarget);
          }}
          data-testid="play-ticket-form"
          style={{ display: 'flex', gap: '0.5rem', flexWrap: 'wrap', alignItems: 'center', marginBottom: '0.75rem' }}
        >
          <span className="muted">Playing for the human reference? Only a seed the server draws counts:</span>
          <input type="text" name="player" placeholder="Your name" required maxLength={64} pattern="[A-Za-z0-9][A-Za-z0-9._\-]*" aria-label="Player name" />
          <input type="password" name="token" placeholder="admin token (optional)" aria-label="Ticket token" />
          <button type="submit">Get a ticket</button>
          {ticketError && (
            <span role="alert" style={{ color: 'var(--bad)' }}>
              {ticketError}
            </span>
          )}
        </form>
      ) : ticket ? (
        <p className="muted" data-testid="play-ticket">
          Ticket <code>{ticket.id}</code>: seed {ticket.seed}, drawn by the server. Playing as <strong>{ticket.player}</strong>
          {ticket.token === null && ticket.playerStatus !== 'accepted' ? ' (a candidate: your play counts once an admin accepts you).' : '.'}
        </p>
      ) : null}
      <GameStage
        stageRef={stageRef}
        iframeRef={iframeRef}
        width={m.canvas.width}
        height={m.canvas.height}
        title={m.title}
        iframeTabIndex={-1}
        iframeStyle={{ pointerEvents: 'none' }}
        tabIndex={0}
        data-testid="play-stage"
        style={{ outline: 'none', touchAction: 'none' }}
        onKeyDown={(e) => {
          if (IGNORED_KEYS.has(e.key) || e.repeat) return;
          e.preventDefault();
          gui({ type: 'key', key: e.key });
        }}
        onPointerDown={(e) => {
          stageRef.current?.focus();
          pointerStart.current = usesPointer ? toGame(e) : null;
        }}
        onPointerUp={(e) => {
          const from = pointerStart.current;
          pointerStart.current = null;
          if (!from) return;
          const to = toGame(e);
          if (Math.hypot(to.x - from.x, to.y - from.y) < 8) gui({ type: 'click', x: Math.round(from.x), y: Math.round(from.y) });
          else gui({ type: 'drag', from: [Math.round(from.x), Math.round(from.y)], to: [Math.round(to.x), Math.round(to.y)] });
        }}
      />
      <p className="muted" style={{ fontSize: '0.85rem' }}>
        {m.controls} Each input is one step of {m.msPerStep} virtual ms.
      </p>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: '0.4rem', maxWidth: 640 }} aria-label="Actions">
        {m.preset.map((p, i) => (
          <button type="button" key={i} onClick={() => act(i)} disabled={status !== 'playing'}>
            {p.name}
          </button>
        ))}
      </div>
      {status === 'over' && record && (
        <div className="card" style={{ marginTop: '1rem' }}>
          <h3 style={{ marginTop: 0 }}>
            Final score {record.totals.score} in {record.totals.length} steps
          </h3>
          <p>
            <button
              type="button"
              onClick={() => {
                setTicket(null);
                void start(Math.floor(Math.random() * 1_000_000));
              }}
            >
              Play again
            </button>{' '}
            <a download={`${m.id}-seed${record.seed}.json`} href={`data:application/json,${encodeURIComponent(JSON.stringify(record))}`}>
              Download the episode record
            </a>
          </p>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void submitReference(e.currentTarget);
            }}
            style={{ display: 'flex', gap: '0.5rem', flexWrap: 'wrap', alignItems: 'center' }}
          >
            <span>Submit as a human reference{ticket ? ` (as ${ticket.player})` : ''}:</span>
            {!ticket && (
              <>
                <input type="text" name="name" placeholder="Your name" required maxLength={80} aria-label="Name" />
                <input type="password" name="token" placeholder="admin API token" required aria-label="Token" />
              </>
            )}
            <button className="primary" type="submit" disabled={submit.state === 'sending'}>
              Submit
            </button>
          </form>
          {submit.state !== 'idle' && (
            <p data-testid="play-submit" style={{ color: submit.state === 'failed' ? 'var(--bad)' : undefined }}>
              {submit.state === 'sending'
                ? 'Verifying by re-simulation…'
                : submit.state === 'done'
                  ? `Accepted: ${submit.message}`
                  : `Rejected: ${submit.message}`}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
