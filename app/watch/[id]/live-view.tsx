'use client';

import { useEffect, useState } from 'react';
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
// The events the gym server streams (what a session publishes to its watchers).
import type { WatchEvent } from '../../../gym/sessions';

const HISTORY = 300;

/** One session's frames and scores as they happen, over server-sent events. */
export function LiveView({ id }: { id: string }) {
  const [frame, setFrame] = useState<string | null>(null);
  const [frames, setFrames] = useState(0);
  const [points, setPoints] = useState<{ step: number; score: number; reward: number }[]>([]);
  const [last, setLast] = useState<WatchEvent | null>(null);
  const [connection, setConnection] = useState<'connecting' | 'live' | 'lost'>('connecting');

  useEffect(() => {
    const source = new EventSource(`/api/watch/${encodeURIComponent(id)}`);
    source.addEventListener('status', () => setConnection('live'));
    source.addEventListener('step', (e) => {
      const event = JSON.parse((e as MessageEvent<string>).data) as WatchEvent;
      setLast(event);
      if (event.frame) {
        setFrame(event.frame);
        setFrames((n) => n + 1);
      }
      setPoints((p) => [...p.filter((x) => x.step < event.step).slice(-HISTORY), { step: event.step, score: event.score, reward: event.reward }]);
    });
    source.onerror = () => setConnection('lost');
    return () => source.close();
  }, [id]);

  return (
    <div>
      <div className="card" style={{ display: 'flex', gap: '1.5rem', flexWrap: 'wrap', marginBottom: '0.75rem' }}>
        <div data-testid="watch-connection">{connection === 'live' ? 'Live' : connection === 'lost' ? 'Connection lost' : 'Connecting…'}</div>
        <div>
          Step <strong data-testid="watch-step">{last?.step ?? '—'}</strong>
        </div>
        <div>
          Score <strong data-testid="watch-score">{last?.score ?? '—'}</strong>
        </div>
        <div>
          Reward <strong>{last?.reward ?? '—'}</strong>
        </div>
        <div className="muted">{frames} frames</div>
        {last && (last.terminated || last.truncated) && <div className="badge">episode {last.terminated ? 'over' : 'budget reached'}</div>}
      </div>
      <div className="card" style={{ padding: 0, overflow: 'hidden', maxWidth: 480, minHeight: 120 }}>
        {frame ? (
          // eslint-disable-next-line @next/next/no-img-element
          <img data-testid="watch-frame" src={frame} alt="Live frame of the game" style={{ width: '100%', display: 'block' }} />
        ) : (
          <p className="muted" style={{ padding: '1rem' }}>
            Waiting for the session&apos;s next step…
          </p>
        )}
      </div>
      <div className="card" style={{ height: 200, marginTop: '0.75rem' }}>
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={points}>
            <CartesianGrid stroke="#30363d" strokeDasharray="3 3" />
            <XAxis dataKey="step" stroke="#8b949e" />
            <YAxis stroke="#8b949e" />
            <Tooltip contentStyle={{ background: '#161b22', border: '1px solid #30363d' }} />
            <Line dataKey="score" stroke="#58a6ff" dot={false} isAnimationActive={false} />
            <Line dataKey="reward" stroke="#3fb950" dot={false} isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      </div>
    </div>
  );
}
