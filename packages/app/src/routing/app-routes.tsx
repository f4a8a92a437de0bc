import { IonRouterOutlet } from '@ionic/react';
import { AddBackupScreen } from '../screens/add-backup-screen.tsx';
import { AddDatasetScreen } from '../screens/add-dataset-screen.tsx';
import { AddFullBackupScreen } from '../screens/add-full-backup-screen.tsx';
import { AnnotationScreen } from '../screens/annotation-screen.tsx';
import { BackupLinkScreen } from '../screens/backup-link-screen.tsx';
import { BackupPreviewScreen } from '../screens/backup-preview-screen.tsx';
import { BackupsScreen } from '../screens/backups-screen.tsx';
import { BillDetailsScreen } from '../screens/bill-details-screen.tsx';
import { BillTagsScreen } from '../screens/bill-tags-screen.tsx';
import { DatasetsScreen } from '../screens/datasets-screen.tsx';
import { ExportScreen } from '../screens/export-screen.tsx';
import { FullBackupPreviewScreen } from '../screens/full-backup-preview-screen.tsx';
import { ImportScreen } from '../screens/import-screen.tsx';
import { JobsScreen } from '../screens/jobs-screen.tsx';
import { LoginScreen } from '../screens/login-screen.tsx';
import { LogoutScreen } from '../screens/logout-screen.tsx';
import { NotFoundScreen } from '../screens/not-found-screen.tsx';
import { PublicLinkScreen } from '../screens/public-link-screen.tsx';
import { RestoreScreen } from '../screens/restore-screen.tsx';
import { ReturnFromLoginScreen } from '../screens/return-from-login-screen.tsx';
import { SwipeableBillsScreen } from '../screens/swipeable-bills-screen.tsx';
import { TabsScreen } from '../screens/tabs-screen.tsx';
import { TermsForViewerScreen } from '../screens/terms-for-viewer-screen.tsx';
import { TermsOfServiceScreen } from '../screens/terms-of-service-screen.tsx';
import { TraceScreen } from '../screens/trace-screen.tsx';
import { RedirectView } from './redirect-view.tsx';
import { guardedRoute, loginRoute, openRoute, pageRoute } from './route-page.tsx';
import { HOME_TAB_PATH, LOGIN_PATH, LOGOUT_PATH } from './route-paths.ts';

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
