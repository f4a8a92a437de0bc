import { IonButton } from '@ionic/react';
import { billListSearch, defaultBillListQuery } from '@docket/core/lists';
import type { Dataset, Job } from '@docket/core/store';
import { useEffect, useRef, useState } from 'react';
import '../ui/forms.css';
import {
  jobFraction,
  jobsEndedWords,
  jobStatusWords,
  recordTallyWords,
} from '../datasets/dataset-words.ts';
import { formatDateTime, formatDuration, plural } from '../ui/formatting.ts';
import { importJobs } from '../import-worker/import-jobs-client.ts';
import { useDatasets } from '../local-store/live-datasets.ts';
import { useJobs } from '../local-store/live-jobs.ts';
import { useNow } from '../ui/use-now.ts';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { HOME_TAB_PATH } from '../routing/route-paths.ts';
import { FormError } from '../ui/form-error.tsx';
import { IonProgressBar } from '../ui/ionic/ion-progress-bar.ts';

const kindWords: Readonly<Record<Job['kind'], string>> = {
  import: 'Import',
  export: 'Export',
  'full-backup': 'Full backup',
  'full-backup-restore': 'Restore of a full backup',
  backup: 'Backup',
  restore: 'Restore of a backup',
};

/** The action a job's buttons ask for. */
type JobAction = 'cancel' | 'retry' | 'resume';

/** The list of every bill a dataset provides, on Tracked. */
function datasetBillsPath(datasetId: string): string {
  return `/tabs/tracked?${billListSearch({ ...defaultBillListQuery, datasetId, all: true })}`;
}

/** What a job's "Written" counts: records for an import (several may give one bill), rows for
 *  the rest. */
function writtenUnit(kind: Job['kind']): string {
  return kind === 'import' ? 'record' : 'row';
}

function duration(job: Job, now: number): string | null {
  if (job.startedAt === null) return null;
  const end = job.finishedAt === null ? now : Date.parse(job.finishedAt);
  return formatDuration(end - Date.parse(job.startedAt));
}

function jobLabel(job: Job, datasetName: string): string {
  return job.kind === 'import'
    ? `${kindWords.import} of ${datasetName}`
    : `${kindWords[job.kind]}${job.label === undefined ? '' : `: ${job.label}`}`;
}

/** What the screen's status says when jobs it showed running end (read out, not painted). */
function useEndedJobsAnnouncement(
  jobs: readonly Job[] | undefined,
  label: (job: Job) => string,
): string {
  const seen = useRef(new Map<string, Job['status']>());
  const [said, setSaid] = useState('');
  useEffect(() => {
    if (jobs === undefined) return;
    const words = jobsEndedWords(seen.current, jobs, label);
    seen.current = new Map(jobs.map((job) => [job.id, job.status]));
    if (words !== null) setSaid(words);
    // `label` is made anew each render from the same names; the jobs decide.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [jobs]);
  return said;
}

export function JobsScreen() {
  const jobs = useJobs();
  const datasets = useDatasets();
  const [failure, setFailure] = useState<string | null>(null);
  const running = (jobs ?? []).some((job) => job.status === 'running' || job.status === 'queued');
  const now = useNow(running ? 1000 : null);
  useEffect(() => {
    // Starting the worker is what finds jobs a closed tab left behind.
    importJobs();
  }, []);
  const names = new Map((datasets ?? []).map((dataset: Dataset) => [dataset.id, dataset.name]));
  const ended = useEndedJobsAnnouncement(jobs, (job) =>
    jobLabel(job, names.get(job.subjectId) ?? 'a dataset that was removed'),
  );

  const act = (action: JobAction, jobId: string) => {
    setFailure(null);
    const jobs = importJobs();
    const call =
      action === 'cancel'
        ? jobs.cancel(jobId)
        : action === 'retry'
          ? jobs.retry(jobId)
          : jobs.resume(jobId);
    call.catch((error: unknown) => {
      setFailure(error instanceof Error ? error.message : String(error));
    });
  };

  return (
    <>
      <PageHeader title="Jobs" backHref="/tabs/more" />
      <PageBody>
        <h1>Jobs</h1>
        <p className="visually-hidden" role="status">
          {ended}
        </p>
        <FormError message={failure} />
        {jobs === undefined ? (
          <p role="status">Loading jobs…</p>
        ) : jobs.length === 0 ? (
          <p>No jobs yet. Imports appear here when you add a dataset.</p>
        ) : (
          <ul className="record-list" aria-label="Jobs">
            {jobs.map((job) => (
              <JobCard
                key={job.id}
                job={job}
                datasetName={names.get(job.subjectId) ?? 'a dataset that was removed'}
                now={now}
                onAction={act}
              />
            ))}
          </ul>
        )}
      </PageBody>
    </>
  );
}

function JobCard({
  job,
  datasetName,
  now,
  onAction,
}: {
  job: Job;
  datasetName: string;
  now: number;
  onAction: (action: JobAction, jobId: string) => void;
}) {
  const headingId = `job-${job.id}`;
  const status = jobStatusWords[job.status];
  const fraction = jobFraction(job);
  const active = job.status === 'running' || job.status === 'queued';
  const label = jobLabel(job, datasetName);
  return (
    <li className="record-card" aria-labelledby={headingId}>
      <h2 id={headingId}>{label}</h2>
      <p>
        <strong>{status}</strong>
        {job.message !== null && <> · {job.message}</>}
      </p>
      <IonProgressBar
        aria-label={`Progress: ${label}`}
        {...(active && fraction === null
          ? { type: 'indeterminate' as const }
          : { value: fraction ?? 0 })}
        {...(job.status === 'failed' ? { color: 'danger' } : {})}
      />
      <JobFacts job={job} now={now} />
      <JobProblems job={job} />
      <JobActions job={job} active={active} onAction={onAction} />
    </li>
  );
}

/** What a job read, wrote and skipped, what it came to, when it started and how long it took. */
function JobFacts({ job, now }: { job: Job; now: number }) {
  const took = duration(job, now);
  const { recordsRead, written, skipped, total } = job.progress;
  const tally = job.kind === 'import' ? recordTallyWords(job) : null;
  return (
    <dl className="record-facts">
      <dt>Read</dt>
      <dd>
        {total === null
          ? plural(recordsRead, 'record')
          : `${recordsRead} of ${plural(total, 'record')}`}
      </dd>
      <dt>Written</dt>
      <dd>{plural(written, writtenUnit(job.kind))}</dd>
      <dt>Skipped</dt>
      <dd>{plural(skipped, 'record')}</dd>
      {job.result !== null && (
        <>
          <dt>Result</dt>
          <dd>
            {job.result.added} added, {job.result.updated} updated, {job.result.unchanged}{' '}
            unchanged, {job.result.removed} removed
          </dd>
        </>
      )}
      {tally !== null && (
        <>
          <dt>Records</dt>
          <dd>{tally}</dd>
        </>
      )}
      <dt>Started</dt>
      <dd>{job.startedAt === null ? 'Not yet' : formatDateTime(job.startedAt)}</dd>
      {took !== null && (
        <>
          <dt>Duration</dt>
          <dd>{took}</dd>
        </>
      )}
    </dl>
  );
}

/** A job's errors and the files it did not use, each folded away under its count. */
function JobProblems({ job }: { job: Job }) {
  const errorCount = Math.max(job.progress.skipped, job.errors.length);
  return (
    <>
      {job.errors.length > 0 && (
        <details>
          <summary>
            {plural(errorCount, 'error')}
            {errorCount > job.errors.length ? ` (the first ${job.errors.length} are listed)` : ''}
          </summary>
          <ul>
            {job.errors.map((error, index) => (
              <li key={index}>
                {error.record !== null && <strong>{error.record}: </strong>}
                {error.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
      {job.result?.notUsed !== undefined && job.result.notUsed.length > 0 && (
        <details>
          <summary>
            {plural(job.result.notUsedCount ?? job.result.notUsed.length, 'file')} not used
            {(job.result.notUsedCount ?? 0) > job.result.notUsed.length
              ? ` (the first ${job.result.notUsed.length} are listed)`
              : ''}
          </summary>
          <ul>
            {job.result.notUsed.map((notUsed, index) => (
              <li key={index}>
                <strong>{notUsed.file}: </strong>
                {notUsed.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
    </>
  );
}

/** Where a finished import leads, and Cancel, Resume and Retry for an import that can take them. */
function JobActions({
  job,
  active,
  onAction,
}: {
  job: Job;
  active: boolean;
  onAction: (action: JobAction, jobId: string) => void;
}) {
  // Only imports can be cancelled, resumed and retried from here; other kinds are run to the end
  // (or failed) by their own screens.
  const actionable = job.kind === 'import';
  return (
    <div className="screen-actions">
      {/* A finished import ends in where to go next: its bills, in the deck or as a list. */}
      {actionable && job.status === 'done' && (
        <>
          <IonButton size="small" routerLink={HOME_TAB_PATH}>
            Open the deck
          </IonButton>
          <IonButton size="small" fill="outline" routerLink={datasetBillsPath(job.subjectId)}>
            See these bills
          </IonButton>
        </>
      )}
      {actionable && (active || job.status === 'interrupted') && (
        <IonButton
          size="small"
          fill="outline"
          color="danger"
          onClick={() => {
            onAction('cancel', job.id);
          }}
        >
          Cancel
        </IonButton>
      )}
      {actionable && job.status === 'interrupted' && (
        <IonButton
          size="small"
          onClick={() => {
            onAction('resume', job.id);
          }}
        >
          Resume
        </IonButton>
      )}
      {actionable &&
        (job.status === 'failed' || job.status === 'cancelled' || job.status === 'interrupted') && (
          <IonButton
            size="small"
            fill="outline"
            onClick={() => {
              onAction('retry', job.id);
            }}
          >
            Retry
          </IonButton>
        )}
    </div>
  );
}
