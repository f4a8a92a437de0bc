import { termsViewerSchema, termsViewers } from '@docket/protocol/terms';
import { Link, useParams } from 'react-router-dom';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { HomePageLink } from '../routing/home-page-link.tsx';
import { TermsOfServiceText } from '../terms/terms-of-service-text.tsx';

/** /terms-of-service/:viewer, open to anyone (app stores link here). */
export function TermsForViewerScreen() {
  const viewer = termsViewerSchema.safeParse(useParams().viewer);
  if (!viewer.success) {
    return (
      <>
        <PageHeader title="Terms of service" />
        <PageBody>
          <h1>No terms for this viewer</h1>
          <p>
            Terms of service exist for these viewers:{' '}
            {termsViewers.map((known, index) => (
              <span key={known}>
                {index > 0 && ', '}
                <Link to={`/terms-of-service/${known}`}>{known}</Link>
              </span>
            ))}
            .
          </p>
          <HomePageLink />
        </PageBody>
      </>
    );
  }
  return (
    <>
      <PageHeader title="Terms of service" />
      <PageBody>
        <h1>Terms of service</h1>
        <TermsOfServiceText viewer={viewer.data} />
      </PageBody>
    </>
  );
}
