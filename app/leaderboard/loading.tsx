import '../components/board.css';

export default function Loading() {
  return (
    <div aria-busy="true" aria-label="Loading">
      <h1>Leaderboard</h1>
      {Array.from({ length: 8 }, (_, i) => (
        <div key={i} className="lb-skeleton" style={{ width: `${90 - i * 6}%` }} />
      ))}
    </div>
  );
}
