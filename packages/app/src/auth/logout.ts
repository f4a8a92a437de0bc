/** The steps of a logout, injected so their order can be tested. */
export interface LogoutSteps {
  clearAuthRecord(): Promise<void>;
  signOut(): Promise<void>;
  navigateToLogin(): void;
}

/**
 * Spec §4: clear the record, sign out, go to /login, in that order. A failed step is logged and
 * the logout carries on: the user asked to leave, and /login must be reached either way.
 */
export async function logout(steps: LogoutSteps): Promise<void> {
  try {
    await steps.clearAuthRecord();
  } catch (error) {
    console.error('[docket] Could not clear the stored auth record:', error);
  }
  try {
    await steps.signOut();
  } catch (error) {
    console.error('[docket] Sign-out failed:', error);
  }
  steps.navigateToLogin();
}
