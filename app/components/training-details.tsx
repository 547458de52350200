import type { TrainingColumns } from '../../drizzle/schema';

/**
 * How a trained agent says it was trained (`arcade-gym train --submit`). The server replays the
 * evaluation episodes but cannot check any of this, so every line says "as claimed".
 */
export function TrainingDetails({ training }: { training: TrainingColumns }) {
  const claimed = <span className="muted">(as claimed)</span>;
  return (
    <dl className="lb-kv card" data-testid="training-details">
      <dt>Algorithm</dt>
      <dd>
        {training.algorithm} {claimed}
      </dd>
      <dt>Backend</dt>
      <dd data-testid="training-backend">
        {training.backend} {claimed}
      </dd>
      <dt>Trained for</dt>
      <dd>
        {training.totalTimesteps.toLocaleString('en-US')} environment steps {claimed}
      </dd>
      <dt>Actions</dt>
      <dd data-testid="training-game-specific">
        {training.gameSpecific
          ? "game-specific: the policy acts through the game's own planner or reads its own features"
          : "the preset's keys, read through the verifier's features"}{' '}
        {claimed}
      </dd>
      <dt>Checkpoint</dt>
      <dd title="sha256 of the policy file that played the evaluation episodes">
        <code>{training.checkpointSha256}</code> {claimed}
      </dd>
      <dt>Settings</dt>
      <dd>
        <details>
          <summary>the run’s resolved config.json {claimed}</summary>
          <pre style={{ maxHeight: '24rem', overflow: 'auto', fontSize: '0.8em' }}>{JSON.stringify(training.config, null, 2)}</pre>
        </details>
      </dd>
    </dl>
  );
}
