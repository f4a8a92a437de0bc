import { expose } from 'comlink';
import { dexieBillSearchFeed } from '../local-store/bill-search-feed.ts';
import { createDocketDatabase } from '../local-store/docket-database.ts';
import { createBillSearchService } from './bill-search-service.ts';

// The search worker: its own connection to the device's database and the index built from it
// (bill-search-service.ts), offered to the page through comlink.

expose(createBillSearchService(dexieBillSearchFeed(createDocketDatabase())));
