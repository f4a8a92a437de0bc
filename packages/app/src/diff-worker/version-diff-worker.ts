import { expose } from 'comlink';
import { versionDiffApi } from './version-diff-service.ts';

// The diff worker: "Compare versions" asks it through comlink (version-diff-client.ts).

expose(versionDiffApi);
