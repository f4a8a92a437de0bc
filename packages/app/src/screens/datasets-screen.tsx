import { IonButton } from '@ionic/react';
import { useEffect } from 'react';
import '../ui/forms.css';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { importJobs } from '../import-worker/import-jobs-client.ts';
import { useDatasets } from '../local-store/live-datasets.ts';
import { useJobs } from '../local-store/live-jobs.ts';
import { DatasetCard } from '../datasets/dataset-card.tsx';
import { RefreshAllButton } from '../datasets/dataset-refresh.tsx';
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
            {datasets.map((dataset) => (
              <DatasetCard
                key={dataset.id}
                dataset={dataset}
                lastJob={dataset.lastJobId === null ? undefined : jobsById.get(dataset.lastJobId)}
                manages={space.manages}
              />
            ))}
          </ul>
        )}
      </PageBody>
    </>
  );
}
