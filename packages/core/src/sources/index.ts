// The public face of sources/ for the other packages (README.md); inside core, files import each other directly.
export {
  apiKeyHint,
  apiKeyProblem,
  apiKeySourceNames,
  readApiKey,
  removeApiKey,
  saveApiKey,
} from './api-keys.ts';
export {
  rateLimitedMessage,
  retryAfterSeconds,
  SOURCE_RETRY_WAIT_MAX_SECONDS,
} from './source-api.ts';
export {
  findLegiscanSession,
  isLegiscanState,
  LEGISCAN_MISSING_KEY,
  LegiscanApiError,
  legiscanBillTextUrl,
  type LegiscanDatasetEntry,
  legiscanDatasetListUrl,
  legiscanDatasetUrl,
  legiscanRateLimited,
  parseLegiscanBillText,
  parseLegiscanDataset,
  parseLegiscanDatasetList,
} from './legiscan-api.ts';
export {
  legiscanBillUrl,
  type LegiscanMasterListEntry,
  legiscanMasterListRawUrl,
  legiscanPersonUrl,
  legiscanRollCallUrl,
  parseLegiscanBill,
  parseLegiscanMasterListRaw,
  parseLegiscanPerson,
  parseLegiscanRollCall,
} from './legiscan-bill-api.ts';
export {
  legiscanChangedBills,
  type LegiscanKept,
  legiscanKept,
  legiscanKeptAfterBills,
  legiscanKeptOfDataset,
  legiscanRefreshWay,
  legiscanSourceHash,
  readLegiscanKept,
  saveLegiscanKept,
  splitLegiscanSourceHash,
  takeLegiscanDataset,
} from './legiscan-refresh.ts';
export {
  countLegiscanQueries,
  LEGISCAN_MONTHLY_QUERIES,
  LEGISCAN_QUERIES_SETTING,
  legiscanKeyId,
  legiscanQueriesWords,
  legiscanQuotaRefusal,
  queryMonth,
  readLegiscanQueries,
} from './legiscan-quota.ts';
export {
  OPENSTATES_MAX_PAGES,
  OPENSTATES_MISSING_KEY,
  OpenStatesApiError,
  openStatesBillsUrl,
  openStatesRateLimited,
  openStatesRefusal,
  parseOpenStatesPage,
} from './openstates-api.ts';
export {
  GovInfoBulkError,
  govInfoFilesToRead,
  govInfoListingUrl,
  parseGovInfoListing,
} from './govinfo-bulk.ts';
export {
  CONGRESS_API_MAX_LIST_PAGES,
  CONGRESS_API_PAGE,
  CONGRESS_MISSING_KEY,
  CongressApiError,
  congressBillListUrl,
  type CongressBillPart,
  congressBillParts,
  congressBillStatusXml,
  congressBillsToRead,
  congressBillUrl,
  type CongressListedBill,
  congressPartCount,
  congressRateLimited,
  congressRefusal,
  parseCongressBill,
  parseCongressBillList,
  parseCongressPart,
} from './congress-api.ts';
export {
  type ApiSourceFormErrors,
  type DatasetSourceKind,
  parseBillType,
  parseCongress,
  parseLegiscanSessionId,
  validateApiSourceForm,
} from './api-source-form.ts';
export {
  legiscanSessionListUrl,
  openStatesJurisdictionUrl,
  openStatesSessionsRefusal,
  parseLegiscanSessionList,
  parseOpenStatesSessions,
  SESSION_LIST_MAX_BYTES,
  type SourceSession,
} from './source-sessions.ts';
