import { jobsOverview } from '../../jobs/overview';
import { openedSiteJobQueue, siteJobQueue } from '../../jobs/site';
import { serverContext } from '../../leaderboard/server';
import { DataTable } from '../components/data-table';

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
      <DataTable
        testId="jobs-queues"
        rows={o.queues}
        rowKey={(q) => q.name}
        columns={[
          { head: 'queue', cell: (q) => q.name },
          { head: 'waiting', cell: (q) => q.created },
          { head: 'retrying', cell: (q) => q.retry },
          { head: 'running', cell: (q) => q.active },
          { head: 'completed', cell: (q) => q.completed },
          { head: 'failed', cell: (q) => q.failed },
        ]}
      />
      <h2>Workers seen in the last 2 minutes</h2>
      <DataTable
        testId="jobs-workers"
        empty="None."
        rows={o.workers}
        rowKey={(w) => w.id}
        columns={[
          { head: 'worker', cell: (w) => <code>{w.id}</code> },
          { head: 'build', cell: (w) => <code>{w.build}</code> },
          { head: 'queues', cell: (w) => w.queues.join(', ') },
          { head: 'state', cell: (w) => w.state },
          { head: 'running', cell: (w) => `${w.running}/${w.concurrency}` },
          { head: 'done', cell: (w) => w.done },
          { head: 'failed', cell: (w) => w.failed },
          { head: 'refused', cell: (w) => w.refused },
          { head: 'seen', cell: (w) => ago(w.seenAt) },
        ]}
      />
      <h2>Running</h2>
      <DataTable
        empty="Nothing running."
        rows={o.running}
        rowKey={(j) => j.id}
        columns={[
          { head: 'job', cell: (j) => <code>{j.id.slice(0, 8)}</code> },
          { head: 'queue', cell: (j) => j.queue },
          { head: 'what', cell: (j) => j.summary },
          { head: 'attempt', cell: (j) => j.attempt },
          { head: 'started', cell: (j) => ago(j.startedOn) },
        ]}
      />
      <h2>Failed</h2>
      <DataTable
        empty="No failed jobs."
        rows={o.failed}
        rowKey={(j) => j.id}
        columns={[
          { head: 'job', cell: (j) => <code>{j.id.slice(0, 8)}</code> },
          { head: 'queue', cell: (j) => j.queue },
          { head: 'attempts', cell: (j) => j.attempts },
          { head: 'error', cell: (j) => j.error },
          { head: 'when', cell: (j) => ago(j.at) },
        ]}
      />
      <h2>Refusals, released jobs, lost leases</h2>
      <DataTable
        empty="None."
        rows={o.events}
        rowKey={(_, i) => i}
        columns={[
          { head: 'when', cell: (e) => ago(e.at) },
          { head: 'kind', cell: (e) => e.kind },
          { head: 'queue', cell: (e) => e.queue },
          { head: 'worker', cell: (e) => <code>{e.worker}</code> },
          { head: 'message', cell: (e) => e.message },
        ]}
      />
    </>
  );
}
