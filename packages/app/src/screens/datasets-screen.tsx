import { IonButton } from '@ionic/react';
import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import '../ui/forms.css';
import {
  datasetSourceWords,
  datasetStateWords,
  formatName,
  lastResultWords,
} from '../datasets/dataset-words.ts';
import { formatDateTime, plural } from '../ui/formatting.ts';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { importJobs } from '../import-worker/import-jobs-client.ts';
import { useDatasets } from '../local-store/live-datasets.ts';
import { useJobs } from '../local-store/live-jobs.ts';
import { DeleteDatasetButton } from '../datasets/dataset-delete.tsx';
import { FilesUnavailableActions } from '../datasets/dataset-files-unavailable.tsx';
import { RefreshAllButton, RefreshDatasetButton } from '../datasets/dataset-refresh.tsx';
import { SkipToTabs } from '../layout/skip-links.tsx';
import { DATASET_OWNER_WORDS, useDatasetSpace } from '../local-store/dataset-space.ts';

/** Shown as a tab and as its own route; as a route it offers a way back to the tabs. */
export function DatasetsScreen({ backHref }: { readonly backHref?: string }) {
  const datasets = useDatasets();
  const jobs = useJobs();
  const jobsById = new Map((jobs ?? []).map((job) => [job.id, job]));
  const space = useDatasetSpace();
  useEffect(() => {
    // Starting the worker is what finds imports a closed tab left behind.
    importJobs();
  }, []);
  return (
    <>
      <PageHeader title="Datasets" {...(backHref === undefined ? {} : { backHref })} />
      <PageBody>
        <h1>Datasets</h1>
        <SkipToTabs />
        <div className="screen-actions">
          {space.manages && <IonButton routerLink="/add-dataset">New dataset</IonButton>}
          <IonButton routerLink="/jobs" fill="outline">
            Jobs
          </IonButton>
          <RefreshAllButton datasets={datasets ?? []} />
        </div>
        {space.manages ? null : <p className="field-hint">{DATASET_OWNER_WORDS}</p>}
        {datasets === undefined ? (
          <p role="status">Loading datasets…</p>
        ) : datasets.length === 0 ? (
          <p>
            {!space.manages
              ? 'No datasets yet.'
              : space.team
                ? 'No datasets yet. Add one from a URL or a source’s API: each member’s device fetches its bills.'
                : 'No datasets yet. Add one from files (JSON, ZIP, XML, CSV), a folder or a URL.'}
          </p>
        ) : (
          <ul className="record-list" aria-label="Datasets">
            {datasets.map((dataset) => {
              const lastJob =
                dataset.lastJobId === null ? undefined : jobsById.get(dataset.lastJobId);
              const headingId = `dataset-${dataset.id}`;
              const lastResult = lastResultWords(lastJob);
              return (
                <li key={dataset.id} className="record-card" aria-labelledby={headingId}>
                  <h2 id={headingId}>
                    <Link to={`/add-dataset/${encodeURIComponent(dataset.id)}`}>
                      {dataset.name}
                    </Link>
                  </h2>
                  <dl className="record-facts">
                    <dt>Bills</dt>
                    <dd>{plural(dataset.billCount, 'bill')}</dd>
                    <dt>Format</dt>
                    <dd>{formatName(dataset.format)}</dd>
                    <dt>Last import</dt>
                    <dd>
                      {dataset.lastImportAt === null
                        ? 'Never'
                        : formatDateTime(dataset.lastImportAt)}
                    </dd>
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
                  <div className="record-actions">
                    <RefreshDatasetButton dataset={dataset} lastJob={lastJob} />
                    {!space.manages ? null : dataset.filesUnavailable === undefined ? (
                      <DeleteDatasetButton dataset={dataset} lastJob={lastJob} />
                    ) : (
                      <FilesUnavailableActions dataset={dataset} lastJob={lastJob} />
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </PageBody>
    </>
  );
}
