/** A small inline chart of players over time (no chart library): a line, its last point marked. */
export function Sparkline({ points, label, width = 96, height = 24 }: { points: readonly number[]; label: string; width?: number; height?: number }) {
  const top = Math.max(1, ...points);
  const step = points.length > 1 ? (width - 4) / (points.length - 1) : 0;
  const xy = points.map((value, i) => [2 + i * step, height - 2 - (value / top) * (height - 4)] as const);
  const last = xy.at(-1);
  return (
    <svg className="sparkline" role="img" aria-label={label} width={width} height={height} viewBox={`0 0 ${width} ${height}`}>
      {xy.length > 1 && <polyline points={xy.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ')} fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" />}
      {last && <circle cx={last[0]} cy={last[1]} r="2" fill="currentColor" />}
    </svg>
  );
}
