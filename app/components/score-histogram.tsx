'use client';

import { Bar, BarChart, CartesianGrid, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import type { Bin } from '../../leaderboard/histogram';

const label = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(1));

/** Distribution of a game's verified episode scores, with the human and random references marked. */
export function ScoreHistogram({ bins, human, random }: { bins: Bin[]; human: number | null; random: number | null }) {
  const data = bins.map((b) => ({ ...b, mid: (b.from + b.to) / 2, name: `${label(b.from)}–${label(b.to)}` }));
  const step = data.length > 1 ? data[1].mid - data[0].mid : 1;
  const lo = Math.min(data[0]?.from ?? 0, human ?? Infinity, random ?? Infinity);
  const hi = Math.max(data.at(-1)?.to ?? 1, human ?? -Infinity, random ?? -Infinity);
  // Ticks on bin edges (about six of them), so the axis reads in the scores' own units.
  const every = Math.max(1, Math.ceil(data.length / 6));
  const ticks = data.length > 1 ? [...data.filter((_, i) => i % every === 0).map((b) => b.from), data[data.length - 1].to] : data.map((b) => b.mid);
  return (
    <div className="lb-chart" data-testid="score-histogram">
      <BarChart responsive style={{ width: '100%', height: '100%' }} data={data} margin={{ top: 16, right: 16, bottom: 4, left: 0 }} barCategoryGap={1}>
        <CartesianGrid stroke="var(--border)" vertical={false} />
        <XAxis dataKey="mid" type="number" domain={[lo - step / 2, hi + step / 2]} ticks={ticks} tickFormatter={label} stroke="var(--muted)" fontSize={12} />
        <YAxis allowDecimals={false} stroke="var(--muted)" fontSize={12} width={36} />
        <Tooltip
          contentStyle={{ background: 'var(--panel)', border: '1px solid var(--border)' }}
          labelFormatter={(_, p) => `score ${p?.[0]?.payload?.name ?? ''}`}
          formatter={(v) => [String(v), 'episodes']}
        />
        <Bar dataKey="count" fill="var(--accent)" isAnimationActive={false} />
        {human !== null && (
          <ReferenceLine x={human} stroke="var(--good)" strokeDasharray="4 3" label={{ value: 'human', fill: 'var(--good)', fontSize: 12, position: 'top' }} />
        )}
        {random !== null && (
          <ReferenceLine
            x={random}
            stroke="var(--bad)"
            strokeDasharray="4 3"
            label={{ value: 'random', fill: 'var(--bad)', fontSize: 12, position: 'insideTopLeft' }}
          />
        )}
      </BarChart>
    </div>
  );
}
