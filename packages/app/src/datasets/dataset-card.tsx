import type { Dataset, Job } from '@docket/core/store';
import { Link } from 'react-router-dom';
import { formatDateTime, plural } from '../ui/formatting.ts';
import { DeleteDatasetButton } from './dataset-delete.tsx';
import { FilesUnavailableActions } from './dataset-files-unavailable.tsx';
import { RefreshDatasetButton } from './dataset-refresh.tsx';
import {
  datasetSourceWords,
  datasetStateWords,
  formatName,
  lastResultWords,
} from './dataset-words.ts';

/** The facts the Datasets list shows of one dataset: bills, format, last import, state, source. */
function DatasetFacts({
  dataset,
  lastJob,
}: {
  readonly dataset: Dataset;
  readonly lastJob: Job | undefined;
}) {
  const lastResult = lastResultWords(lastJob);
  return (
    <dl className="record-facts">
      <dt>Bills</dt>
      <dd>{plural(dataset.billCount, 'bill')}</dd>
      <dt>Format</dt>
      <dd>{formatName(dataset.format)}</dd>
      <dt>Last import</dt>
      <dd>{dataset.lastImportAt === null ? 'Never' : formatDateTime(dataset.lastImportAt)}</dd>
      <dt>State</dt>
      <dd>{datasetStateWords(dataset, lastJob)}</dd>
      <dt>Source</dt>
      <dd>{datasetSourceWords(dataset)}</dd>
      {lastResult !== null && (
        <>
          <dt>Last result</dt>
          <dd>{lastResult}</dd>
        </>
      )}
    </dl>
  );
}

/**
 * One dataset on the Datasets list: its name (a link to its page), its facts, and Refresh; for
 * those who manage the space's datasets, Delete, or what to do about files that never arrived.
 */
export function DatasetCard({
  dataset,
  lastJob,
  manages,
}: {
  readonly dataset: Dataset;
  /** The dataset's last import job, once the jobs are read. */
  readonly lastJob: Job | undefined;
  readonly manages: boolean;
}) {
  const headingId = `dataset-${dataset.id}`;
  return (
    <li className="record-card" aria-labelledby={headingId}>
      <h2 id={headingId}>
        <Link to={`/add-dataset/${encodeURIComponent(dataset.id)}`}>{dataset.name}</Link>
      </h2>
      <DatasetFacts dataset={dataset} lastJob={lastJob} />
      <div className="record-actions">
        <RefreshDatasetButton dataset={dataset} lastJob={lastJob} />
        {!manages ? null : dataset.filesUnavailable === undefined ? (
          <DeleteDatasetButton dataset={dataset} lastJob={lastJob} />
        ) : (
          <FilesUnavailableActions dataset={dataset} lastJob={lastJob} />
        )}
      </div>
    </li>
  );
}
