import { IonRouterOutlet } from '@ionic/react';
import { AddBackupScreen } from './add-backup-screen.tsx';
import { AddDatasetScreen } from './add-dataset-screen.tsx';
import { AddFullBackupScreen } from './add-full-backup-screen.tsx';
import { AnnotationScreen } from './annotation-screen.tsx';
import { BackupLinkScreen } from './backup-link-screen.tsx';
import { BackupPreviewScreen } from './backup-preview-screen.tsx';
import { BackupsScreen } from './backups-screen.tsx';
import { BillDetailsScreen } from './bill-details-screen.tsx';
import { BillTagsScreen } from './bill-tags-screen.tsx';
import { DatasetsScreen } from './datasets-screen.tsx';
import { ExportScreen } from './export-screen.tsx';
import { FullBackupPreviewScreen } from './full-backup-preview-screen.tsx';
import { ImportScreen } from './import-screen.tsx';
import { JobsScreen } from './jobs-screen.tsx';
import { LoginScreen } from './login-screen.tsx';
import { LogoutScreen } from './logout-screen.tsx';
import { NotFoundScreen } from './not-found-screen.tsx';
import { PublicLinkScreen } from './public-link-screen.tsx';
import { RestoreScreen } from './restore-screen.tsx';
import { ReturnFromLoginScreen } from './return-from-login-screen.tsx';
import { SwipeableBillsScreen } from './swipeable-bills-screen.tsx';
import { TabsScreen } from './tabs-screen.tsx';
import { TermsForViewerScreen } from './terms-for-viewer-screen.tsx';
import { TermsOfServiceScreen } from './terms-of-service-screen.tsx';
import { TraceScreen } from './trace-screen.tsx';
import { RedirectView } from '../routing/redirect-view.tsx';
import { guardedRoute, loginRoute, openRoute, pageRoute } from '../routing/route-page.tsx';
import { HOME_TAB_PATH, LOGIN_PATH, LOGOUT_PATH } from '../routing/route-paths.ts';

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
