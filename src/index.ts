// The package entry: what a partner may import from this project. Only the signature verifier is
// public; it depends on node:crypto alone. The entry is TypeScript source (the project runs it
// with tsx and publishes no build), so a partner imports it through a TypeScript-aware loader
// (tsx, ts-node, Bun, Deno) or copies src/webhooks/verify.ts, which is self-contained.
export { explainServiceSignature, verifyServiceSignature } from './webhooks/verify.js';
export type { VerifyFailure, VerifyOptions, VerifyResult } from './webhooks/verify.js';
