import { IonRouterOutlet } from '@ionic/react';
import { LoginScreen } from './login-screen.tsx';
import { NotFoundScreen } from './not-found-screen.tsx';
import { TabsScreen } from './tabs-screen.tsx';
import { RedirectView } from '../routing/redirect-view.tsx';
import {
  guardedRoute,
  lazyScreen,
  loginRoute,
  openRoute,
  pageRoute,
} from '../routing/route-page.tsx';
import { HOME_TAB_PATH, LOGIN_PATH, LOGOUT_PATH } from '../routing/route-paths.ts';

const AddBackupScreen = lazyScreen(() =>
  import('./add-backup-screen.tsx').then((m) => m.AddBackupScreen),
);
const AddDatasetScreen = lazyScreen(() =>
  import('./add-dataset-screen.tsx').then((m) => m.AddDatasetScreen),
);
const AddFullBackupScreen = lazyScreen(() =>
  import('./add-full-backup-screen.tsx').then((m) => m.AddFullBackupScreen),
);
const AnnotationScreen = lazyScreen(() =>
  import('./annotation-screen.tsx').then((m) => m.AnnotationScreen),
);
const BackupLinkScreen = lazyScreen(() =>
  import('./backup-link-screen.tsx').then((m) => m.BackupLinkScreen),
);
const BackupPreviewScreen = lazyScreen(() =>
  import('./backup-preview-screen.tsx').then((m) => m.BackupPreviewScreen),
);
const BackupsScreen = lazyScreen(() => import('./backups-screen.tsx').then((m) => m.BackupsScreen));
const BillDetailsScreen = lazyScreen(() =>
  import('./bill-details-screen.tsx').then((m) => m.BillDetailsScreen),
);
const BillTagsScreen = lazyScreen(() =>
  import('./bill-tags-screen.tsx').then((m) => m.BillTagsScreen),
);
const DatasetsScreen = lazyScreen(() =>
  import('./datasets-screen.tsx').then((m) => m.DatasetsScreen),
);
const ExportScreen = lazyScreen(() => import('./export-screen.tsx').then((m) => m.ExportScreen));
const FullBackupPreviewScreen = lazyScreen(() =>
  import('./full-backup-preview-screen.tsx').then((m) => m.FullBackupPreviewScreen),
);
const ImportScreen = lazyScreen(() => import('./import-screen.tsx').then((m) => m.ImportScreen));
const JobsScreen = lazyScreen(() => import('./jobs-screen.tsx').then((m) => m.JobsScreen));
const LogoutScreen = lazyScreen(() => import('./logout-screen.tsx').then((m) => m.LogoutScreen));
const MemberScreen = lazyScreen(() => import('./member-screen.tsx').then((m) => m.MemberScreen));
const PublicLinkScreen = lazyScreen(() =>
  import('./public-link-screen.tsx').then((m) => m.PublicLinkScreen),
);
const RestoreScreen = lazyScreen(() => import('./restore-screen.tsx').then((m) => m.RestoreScreen));
const ReturnFromLoginScreen = lazyScreen(() =>
  import('./return-from-login-screen.tsx').then((m) => m.ReturnFromLoginScreen),
);
const SwipeableBillsScreen = lazyScreen(() =>
  import('./swipeable-bills-screen.tsx').then((m) => m.SwipeableBillsScreen),
);
const TermsForViewerScreen = lazyScreen(() =>
  import('./terms-for-viewer-screen.tsx').then((m) => m.TermsForViewerScreen),
);
const TermsOfServiceScreen = lazyScreen(() =>
  import('./terms-of-service-screen.tsx').then((m) => m.TermsOfServiceScreen),
);
const TraceScreen = lazyScreen(() => import('./trace-screen.tsx').then((m) => m.TraceScreen));

/**
 * The route table of spec §2 with the access of §6. /login is guarded as well: a signed-in
 * user arriving there with a returnToLink is sent on to it; its form shows during the guard's
 * 'Authenticating' wait.
 */
export function AppRoutes() {
  return (
    <IonRouterOutlet>
      {guardedRoute('/', <RedirectView to={HOME_TAB_PATH} />)}
      {pageRoute('/tabs/*', <TabsScreen />)}
      {loginRoute(LOGIN_PATH, <LoginScreen />)}
      {openRoute('/return-from-login', <ReturnFromLoginScreen />)}
      {openRoute(LOGOUT_PATH, <LogoutScreen />)}
      {guardedRoute('/swipeable-bills', <SwipeableBillsScreen backHref={HOME_TAB_PATH} />)}
      {guardedRoute('/bill-details', <BillDetailsScreen />)}
      {guardedRoute('/bill-tags', <BillTagsScreen />)}
      {guardedRoute('/member', <MemberScreen />)}
      {guardedRoute('/annotation', <AnnotationScreen />)}
      {openRoute('/terms-of-service/:viewer', <TermsForViewerScreen />)}
      {guardedRoute('/terms-of-service', <TermsOfServiceScreen />)}
      {openRoute('/public-link/:id', <PublicLinkScreen />)}
      {guardedRoute('/add-dataset', <AddDatasetScreen />)}
      {guardedRoute('/add-dataset/:id', <AddDatasetScreen />)}
      {guardedRoute('/datasets', <DatasetsScreen backHref={HOME_TAB_PATH} />)}
      {guardedRoute('/jobs', <JobsScreen />)}
      {guardedRoute('/restore', <RestoreScreen />)}
      {guardedRoute('/add-backup', <AddBackupScreen />)}
      {guardedRoute('/add-backup/:id', <AddBackupScreen />)}
      {guardedRoute('/export', <ExportScreen />)}
      {guardedRoute('/import', <ImportScreen />)}
      {guardedRoute('/backups', <BackupsScreen backHref={HOME_TAB_PATH} />)}
      {guardedRoute('/trace', <TraceScreen />)}
      {guardedRoute('/backup-preview/:id', <BackupPreviewScreen />)}
      {guardedRoute('/backup-link/:id', <BackupLinkScreen />)}
      {openRoute('/add-full-backup', <AddFullBackupScreen />)}
      {openRoute('/add-full-backup/:id', <AddFullBackupScreen />)}
      {openRoute('/full-backup-preview/:id', <FullBackupPreviewScreen />)}
      {openRoute('*', <NotFoundScreen />)}
    </IonRouterOutlet>
  );
}
