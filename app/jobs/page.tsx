import { jobsOverview } from '../../jobs/overview';
import { openedSiteJobQueue, siteJobQueue } from '../../jobs/site';
import { serverContext } from '../../leaderboard/server';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Jobs · Arcade Gym' };

const ago = (iso: string) => {
  const s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  return s < 90 ? `${s} s ago` : `${Math.round(s / 60)} min ago`;
};

/** The job queue: evaluation batches and verifications, the workers taking them, and what went wrong. */
export default async function JobsPage() {
  const ctx = await serverContext();
  const jobs = await (openedSiteJobQueue() ?? siteJobQueue(ctx.database));
  const o = await jobsOverview(jobs);
  return (
    <>
      <h1>Jobs</h1>
      <p className="muted">
        Suite evaluations (<code>eval --queue</code>) and submission verification run as jobs on the site&apos;s database ({ctx.database.driver}). Start more
        workers with <code>DATABASE_URL=… npx arcade-gym worker</code>.
      </p>
      <h2>Queues</h2>
      <table data-testid="jobs-queues">
        <thead>
          <tr>
            <th>queue</th>
            <th>waiting</th>
            <th>retrying</th>
            <th>running</th>
            <th>completed</th>
            <th>failed</th>
          </tr>
        </thead>
        <tbody>
          {o.queues.map((q) => (
            <tr key={q.name}>
              <td>{q.name}</td>
              <td>{q.created}</td>
              <td>{q.retry}</td>
              <td>{q.active}</td>
              <td>{q.completed}</td>
              <td>{q.failed}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Workers seen in the last 2 minutes</h2>
      {o.workers.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <table data-testid="jobs-workers">
          <thead>
            <tr>
              <th>worker</th>
              <th>build</th>
              <th>queues</th>
              <th>state</th>
              <th>running</th>
              <th>done</th>
              <th>failed</th>
              <th>refused</th>
              <th>seen</th>
            </tr>
          </thead>
          <tbody>
            {o.workers.map((w) => (
              <tr key={w.id}>
                <td>
                  <code>{w.id}</code>
                </td>
                <td>
                  <code>{w.build}</code>
                </td>
                <td>{w.queues.join(', ')}</td>
                <td>{w.state}</td>
                <td>
                  {w.running}/{w.concurrency}
                </td>
                <td>{w.done}</td>
                <td>{w.failed}</td>
                <td>{w.refused}</td>
                <td>{ago(w.seenAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Running</h2>
      {o.running.length === 0 ? (
        <p className="muted">Nothing running.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>job</th>
              <th>queue</th>
              <th>what</th>
              <th>attempt</th>
              <th>started</th>
            </tr>
          </thead>
          <tbody>
            {o.running.map((j) => (
              <tr key={j.id}>
                <td>
                  <code>{j.id.slice(0, 8)}</code>
                </td>
                <td>{j.queue}</td>
                <td>{j.summary}</td>
                <td>{j.attempt}</td>
                <td>{ago(j.startedOn)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Failed</h2>
      {o.failed.length === 0 ? (
        <p className="muted">No failed jobs.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>job</th>
              <th>queue</th>
              <th>attempts</th>
              <th>error</th>
              <th>when</th>
            </tr>
          </thead>
          <tbody>
            {o.failed.map((j) => (
              <tr key={j.id}>
                <td>
                  <code>{j.id.slice(0, 8)}</code>
                </td>
                <td>{j.queue}</td>
                <td>{j.attempts}</td>
                <td>{j.error}</td>
                <td>{ago(j.at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Refusals, released jobs, lost leases</h2>
      {o.events.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>when</th>
              <th>kind</th>
              <th>queue</th>
              <th>worker</th>
              <th>message</th>
            </tr>
          </thead>
          <tbody>
            {o.events.map((e, i) => (
              <tr key={i}>
                <td>{ago(e.at)}</td>
                <td>{e.kind}</td>
                <td>{e.queue}</td>
                <td>
                  <code>{e.worker}</code>
                </td>
                <td>{e.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
