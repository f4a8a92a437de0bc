import type { Job } from '@docket/core/store';
import { jobFraction, jobStatusWords } from '../datasets/dataset-words.ts';
import { useJob } from '../local-store/live-jobs.ts';
import { IonProgressBar } from '../ui/ionic/ion-progress-bar.ts';

/** A full-backup or restore job as it moves along: its state, then what came of it. */
export function FullBackupJobStatus({
  jobId,
  label,
  doneText,
}: {
  readonly jobId: string;
  readonly label: string;
  readonly doneText: (job: Job) => string;
}) {
  const job = useJob(jobId);
  if (job === undefined) return <p role="status">Starting…</p>;
  const active = job.status === 'queued' || job.status === 'running';
  const fraction = jobFraction(job);
  const { recordsRead, total } = job.progress;
  return (
    <div className="record-card">
      {/* The live region holds only the state, so a reader is not told every row count. */}
      <p role="status">
        <strong>{jobStatusWords[job.status]}</strong>
        {job.status === 'done' && <> · {doneText(job)}</>}
        {active && job.message !== null && <> · {job.message}</>}
      </p>
      {job.status === 'failed' && (
        <p className="field-error" role="alert">
          {job.message ?? 'It failed.'} Nothing was changed.
        </p>
      )}
      {active && (
        <>
          <IonProgressBar
            aria-label={`Progress: ${label}`}
            {...(fraction === null ? { type: 'indeterminate' as const } : { value: fraction })}
          />
          {total !== null && (
            <p>
              {recordsRead.toLocaleString('en-US')} of {total.toLocaleString('en-US')} rows
            </p>
          )}
        </>
      )}
    </div>
  );
}
