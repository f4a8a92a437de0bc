// The public face of changes/ for the other packages (README.md); inside core, files import each other directly.
export { changeWords } from './bill-changes.ts';
export { CHANGE_FEED_TABLES, type ChangeFeedEntry, readChangeFeed } from './change-feed.ts';
