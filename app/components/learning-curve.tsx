'use client';

import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';

/** Mean episode return against environment steps, as a training run reported it. */
export function LearningCurve({ points }: { points: { step: number; meanReturn: number }[] }) {
  return (
    <div className="lb-chart" data-testid="learning-curve">
      <LineChart responsive style={{ width: '100%', height: '100%' }} data={points} margin={{ top: 16, right: 16, bottom: 4, left: 0 }}>
        <CartesianGrid stroke="var(--border)" vertical={false} />
        <XAxis dataKey="step" type="number" domain={['dataMin', 'dataMax']} stroke="var(--muted)" fontSize={12} />
        <YAxis stroke="var(--muted)" fontSize={12} width={44} />
        <Tooltip
          contentStyle={{ background: 'var(--panel)', border: '1px solid var(--border)' }}
          labelFormatter={(s) => `step ${s}`}
          formatter={(v) => [Number(v).toFixed(2), 'mean return']}
        />
        <Line dataKey="meanReturn" stroke="var(--accent)" dot={false} isAnimationActive={false} />
      </LineChart>
    </div>
  );
}
