import { useLocation } from 'react-router-dom';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';
import { HomePageLink } from '../routing/home-page-link.tsx';

export function NotFoundScreen() {
  const { pathname } = useLocation();
  return (
    <>
      <PageHeader title="Page not found" />
      <PageBody>
        <h1>Page not found</h1>
        <p>
          There is no page at <code>{pathname}</code>.
        </p>
        <HomePageLink />
      </PageBody>
    </>
  );
}
