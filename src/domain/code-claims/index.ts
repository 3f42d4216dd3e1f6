// Unique codes among a tenant's active resources (a cost center's code, a department's code, a
// vehicle's registration number), held under concurrency by a claim stream per tenant, kind and
// normalized code (`codeClaim-{tenantId}-{kind}-{key}`): two writers of one code race on one stream,
// and the event store's expected-revision append lets exactly one of them hold it. The resource's own
// stream stays the record; the claim only says who may carry the code. A claim is released when its
// holder archives, deletes or changes the code. A holder that crashed between claiming and recording
// (or between recording and releasing) leaves a stale claim: the shell reports whether the holder
// still carries the code, and a claim older than CLAIM_GRACE_MS whose holder does not is taken over.
// See docs/decisions.md, "Unique codes of organization resources".
import type { Decider } from '../decider.js';
import { conflict } from '../errors.js';

export const CODE_CLAIM_CATEGORY = 'codeClaim';

/** Which resource's codes a claim stream belongs to. */
export type CodeKind = 'costCenter' | 'department' | 'vehicle';

/** A claim this old whose holder no longer carries the code is stale (a write takes far less). */
export const CLAIM_GRACE_MS = 60_000;

/** Spaces and dashes a registration number ignores: any Unicode space or dash, and the minus sign. */
const SPACES_AND_DASHES = /[\s\p{Pd}\u2212]+/gu;

/**
 * How codes compare: in Unicode normal form C (a `Č` typed as C and a combining caron is `Č`: what
 * prints alike compares alike), trimmed and upper case (`cc-1` is `CC-1`); a registration number
 * also without spaces or dashes of any kind (`zg 123–ab` with an en dash is `ZG123AB`). Not form
 * KC: it folds more (full-width letters) but can grow a character eighteenfold, and the key names a
 * claim stream whose id must stay within an index row.
 */
export function codeKey(kind: CodeKind, code: string): string {
  const key = code.normalize('NFC').trim().toUpperCase().normalize('NFC');
  return kind === 'vehicle' ? key.replace(SPACES_AND_DASHES, '') : key;
}

export const codeClaimStream = (tenantId: string, kind: CodeKind, code: string): string =>
  `${CODE_CLAIM_CATEGORY}-${tenantId}-${kind}-${encodeURIComponent(codeKey(kind, code))}`;

export type CodeClaimed = { type: 'CodeClaimed'; data: { kind: CodeKind; code: string; holderId: string; at: string } };
export type CodeReleased = { type: 'CodeReleased'; data: { kind: CodeKind; code: string; holderId: string; at: string } };
export type CodeClaimEvent = CodeClaimed | CodeReleased;

export type ClaimCode = {
  type: 'ClaimCode';
  data: {
    kind: CodeKind;
    code: string;
    holderId: string;
    /** The request field the code came from (named in the conflict). */
    field: string;
    /** Shell lookup: whether the current holder's own stream still carries this code, active. */
    currentHolderCarriesCode: boolean;
  };
};
export type ReleaseCode = { type: 'ReleaseCode'; data: { kind: CodeKind; code: string; holderId: string } };
export type CodeClaimCommand = ClaimCode | ReleaseCode;

export interface CodeClaimState {
  holder: string | undefined;
  claimedAt: string | undefined;
}

export const codeClaimDecider: Decider<CodeClaimCommand, CodeClaimState, CodeClaimEvent> = {
  initialState: () => ({ holder: undefined, claimedAt: undefined }),
  evolve: (_state, event) =>
    event.type === 'CodeClaimed' ? { holder: event.data.holderId, claimedAt: event.data.at } : { holder: undefined, claimedAt: undefined },
  decide: (command, state, ctx) => {
    const { kind, code, holderId } = command.data;
    if (command.type === 'ReleaseCode') {
      return state.holder === holderId ? [{ type: 'CodeReleased', data: { kind, code, holderId, at: ctx.now } }] : [];
    }
    const stale =
      state.holder !== undefined &&
      !command.data.currentHolderCarriesCode &&
      Date.parse(ctx.now) - Date.parse(state.claimedAt ?? ctx.now) >= CLAIM_GRACE_MS;
    if (state.holder === undefined || state.holder === holderId || stale) {
      return [{ type: 'CodeClaimed', data: { kind, code, holderId, at: ctx.now } }];
    }
    throw conflict('CODE_TAKEN', `${code} is already used by another active record of this company.`, {
      field: command.data.field,
      value: code,
      heldBy: state.holder,
    });
  },
};
