// `npm run fidelity:corpora`: where corpora larger than ../shared/fixtures come from. It fetches
// nothing: the sources' bulk downloads are large, some need an account, and the machine that runs
// it may have no network. Download one, unpack it, and give its folder to `npm run fidelity`.

export const CORPORA = `Real corpora for \`npm run fidelity <folder>\` (nothing is downloaded by this command):

GovInfo BILLSTATUS XML, every bill of a Congress (public domain)
  https://www.govinfo.gov/bulkdata/BILLSTATUS   (one ZIP per Congress and bill type)
  e.g. curl -LO https://www.govinfo.gov/bulkdata/BILLSTATUS/117/hr/BILLSTATUS-117-hr.zip
       unzip -d corpus/billstatus-117-hr BILLSTATUS-117-hr.zip
  Schema samples: https://github.com/usgpo/bill-status

unitedstates/congress data.json (public domain / CC0 scraper)
  https://github.com/unitedstates/congress   run its scraper:  usc-run govinfo --bulkdata=BILLSTATUS
  then usc-run bills  (writes data/<congress>/bills/<type>/<bill>/data.json)
  A ready copy of the 116th: https://github.com/d-schwabe/congress-bills-data (commit 2f6b0069)

Open States scrapes (public domain dedication)
  Bulk CSV and JSON per session: https://open.pluralpolicy.com/data/session-csv/ (account needed)
  Scraper output in git: https://github.com/govbot-data  (e.g. usa-legislation, wy-legislation)
  or run https://github.com/openstates/openstates-scrapers:  os-update <state> bills

LegiScan datasets (CC BY 4.0, attribution required)
  https://legiscan.com/datasets   (one ZIP per session; needs a free API key)
  The ZIPs import as they are: \`npm run fidelity\` reads a folder, so unzip them first.

Ready-made: node scripts/make-corpus.mjs  makes ../corpus (every BILLSTATUS XML and data.json
of the 116th Congress, every Open States bill of the US 119th; 51,000 files, 720 MB) from
d-schwabe/congress-bills-data and govbot-data/usa-legislation at fixed commits.

Keep large corpora out of the repository (../corpus beside it, for example).
`;

process.stdout.write(CORPORA);
