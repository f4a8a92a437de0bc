// The public face of device/ for the other packages (README.md); inside core, files import each other directly.
export { type DeviceDataSummary, deviceHoldsData, readDeviceDataSummary } from './device-data.ts';
export { ensureDeviceId } from './device-identity.ts';
export {
  AUTO_REFRESH_AT_SETTING,
  autoRefreshChoices,
  autoRefreshDelay,
  type AutoRefreshHours,
  DEVICE_PREFERENCES_SETTING,
  type DevicePreferences,
  devicePreferencesOf,
  markAutoRefresh,
  openingRefreshDelay,
  readDevicePreferences,
  saveDevicePreferences,
  staleBefore,
} from './device-preferences.ts';
export {
  deleteFormDraft,
  type FormDraftFields,
  formDraftKey,
  readFormDraft,
  saveFormDraft,
} from './form-drafts.ts';
export {
  appendTrace,
  matchesTraceFilter,
  traceDetailLines,
  traceExportJson,
  type TraceFilter,
  traceIdFloor,
  type TraceInput,
  type TraceWindow,
  traceWindows,
  traceWindowStart,
} from './trace-log.ts';
