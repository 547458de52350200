'use client';

import { useState } from 'react';
import type { CatalogEntry } from '../../gym/schema';
import type * as Trainer from '../../gym/browser-train';
import type { BrowserTrainingRun } from '../../gym/browser-train';
import { settledSubmission, type SubmissionAnswer } from '../components/settled-submission';

type Step = { state: 'idle' } | { state: 'working'; message: string } | { state: 'done'; message: string; url: string } | { state: 'failed'; message: string };

interface ApiBody extends SubmissionAnswer {
  ticket?: { id: string; live?: { resetUrl: string; stepUrl: string; claimsUrl?: string; episodes: unknown[] } };
  result?: { run: { url: string; ranked: number; unrankedReason: string | null }; episodes: { verification: string; ranked: boolean }[] };
}

async function api(url: string, init?: RequestInit): Promise<ApiBody> {
  const res = await fetch(url, init);
  const body = (await res.json().catch(() => ({}))) as ApiBody;
  if (!res.ok) throw new Error(body.error?.message ?? `${url}: ${res.status} ${res.statusText}`);
  return body;
}

/**
 * After training: a live ticket from the server (POST /api/tickets, "mode": "live"), whose episodes
 * the server plays on seeds it never shows while this page's policy picks the actions; the learning
 * curve and training settings go with it as the ticket's claims, and the server submits the run and
 * replays it like any other. So the entry is server-played and ranks on the default board. Nothing
 * is sent before the button is pressed.
 */
export function SubmitPanel({
  api: trainer,
  game,
  run,
  curve,
}: {
  api: typeof Trainer;
  game: CatalogEntry;
  run: BrowserTrainingRun;
  curve: { step: number; meanReturn: number }[];
}) {
  const [step, setStep] = useState<Step>({ state: 'idle' });

  const submit = async (form: HTMLFormElement) => {
    const data = new FormData(form);
    const token = String(data.get('token') ?? '').trim();
    const agent = String(data.get('agent') ?? '').trim();
    const auth = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    try {
      // How it was trained, as `train --submit` sends it: the run's resolved settings (its config line, config.json's content),
      // the policy file's sha256, and whether it is game-specific.
      const { kind: _config, ...config } = JSON.parse(run.writer.metricsJsonl().split('\n', 1)[0]) as Record<string, unknown>;
      if (!crypto.subtle) throw new Error('submitting needs a secure page (https or localhost), as WebGPU does: the policy file is hashed here');
      const checkpointSha256 = Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', run.writer.policyFile! as BufferSource)), (b) =>
        b.toString(16).padStart(2, '0'),
      ).join('');
      const training = {
        algorithm: 'ppo',
        backend: run.backend!.kind,
        totalTimesteps: Number(run.options.settings.command.totalTimesteps),
        checkpointSha256,
        config,
        gameSpecific: run.gameSpecific,
      };
      setStep({ state: 'working', message: 'asking the server for a live ticket…' });
      // A live ticket: the server plays its seeds in its own pages and never shows them; this page only sends actions.
      const { ticket } = await api('/api/tickets', {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ game: game.manifest.id, mode: 'live', agent, observation: ['state', 'vector'] }),
      });
      const live = ticket!.live!;
      if (!live.claimsUrl) throw new Error('this server takes no claims on live tickets: it cannot store how the policy was trained');
      await api(live.claimsUrl, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ harness: 'browser-train', training, learningCurve: curve.map((p) => ({ step: p.step, meanReturn: p.meanReturn })) }),
      });
      const mode = (run.options.settings.command.evaluation as { mode?: string } | undefined)?.mode ?? 'greedy';
      // 'sample' games (a move that can change nothing) are evaluated with draws from the policy, as the CLI's table is.
      const agentForEval =
        mode === 'sample'
          ? await trainer.loadPolicy(trainer.decodeCheckpoint(run.writer.policyFile!), run.backend!, { mode: 'sample', seed: run.config.seed })
          : run.policy!;
      // The closing step carries the server's submission: its status document, as POST /api/runs answers.
      const submitted = (await trainer.playLiveTicket({
        game,
        agent: agentForEval,
        resetUrl: live.resetUrl,
        stepUrl: live.stepUrl,
        episodes: live.episodes.length,
        headers: auth,
        onEpisode: (score, i) => setStep({ state: 'working', message: `played live episode ${i + 1} of ${live.episodes.length}: score ${score}` }),
      })) as ApiBody | undefined;
      if (!submitted?.submission) throw new Error(`live ticket ${ticket!.id} closed with nothing to submit`);
      setStep({ state: 'working', message: 'the server replays every episode…' });
      const body = await settledSubmission(submitted);
      if (body.submission?.status !== 'accepted' || !body.result) throw new Error(body.error?.message ?? `verification ${body.submission?.status ?? 'failed'}`);
      const verified = body.result.episodes.filter((e) => e.verification === 'verified').length;
      setStep({
        state: 'done',
        message: `accepted: ${verified} of ${body.result.episodes.length} episodes verified, ${body.result.run.ranked} ranked${body.result.run.unrankedReason ? ` (${body.result.run.unrankedReason})` : ''}`,
        url: body.result.run.url,
      });
    } catch (e) {
      setStep({ state: 'failed', message: e instanceof Error ? e.message : String(e) });
    }
  };

  return (
    <div className="card">
      <h2 style={{ marginTop: 0 }}>Evaluate and submit</h2>
      <p className="muted">
        Plays a live ticket: the server runs the episodes on seeds it keeps to itself, the trained policy here picks every action, and the server submits the
        run with the learning curve, so it ranks on the default board. Submitting needs an API token (arcade-gym token create).
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit(e.currentTarget);
        }}
        style={{ display: 'flex', gap: '0.5rem', flexWrap: 'wrap' }}
      >
        <input type="password" name="token" placeholder="API token" required aria-label="Token" />
        <input
          name="agent"
          placeholder="agent name"
          required
          pattern="[A-Za-z0-9][A-Za-z0-9._-]*"
          aria-label="Agent name"
          defaultValue={`browser-ppo-${game.manifest.id}`}
        />
        <button type="submit" disabled={step.state === 'working'}>
          Evaluate and submit
        </button>
      </form>
      <p data-testid="submit-status" className={step.state === 'failed' ? 'error' : undefined}>
        {step.state === 'idle' ? '' : step.message}
        {step.state === 'done' && (
          <>
            {' '}
            <a href={step.url}>view the run</a>
          </>
        )}
      </p>
    </div>
  );
}
