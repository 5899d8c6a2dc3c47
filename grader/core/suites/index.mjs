// Test suites by name (spec.json's "suite"): a module whose exports are the tests, keyed by test id.
export * as sdpa from './sdpa.mjs';
