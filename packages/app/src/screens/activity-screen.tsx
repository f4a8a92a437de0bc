import { TeamActivity } from '../activity/team-activity.tsx';
import { PageBody } from '../layout/page-body.tsx';
import { PageHeader } from '../layout/page-header.tsx';

/** /tabs/more/activity: what teammates did in the workspace the page works in. */
export function ActivityScreen() {
  return (
    <>
      <PageHeader title="Activity" backHref="/tabs/more" />
      <PageBody>
        <h1>Activity</h1>
        <TeamActivity />
      </PageBody>
    </>
  );
}
