/**
 * Setup file of test/mutation.vitest.config.mts: loads the nodes and credentials before any test, so
 * code that runs when a node module loads (descriptions, tables of messages) counts as static for
 * Stryker (skipped: ignoreStatic) instead of being credited to whichever test happened to load the
 * module first, where its mutants would run against that one test only and survive.
 */
import { loadPackageTypes } from './support/harness/packageTypes.mts';

await loadPackageTypes();
