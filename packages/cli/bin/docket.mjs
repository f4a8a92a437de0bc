#!/usr/bin/env node
// Runs the TypeScript sources through tsx (a root devDependency), so the command works straight
// after `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2));
