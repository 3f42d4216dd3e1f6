// Validation of a partner's webhook URL, used at subscription create time and again before every
// attempt (DNS can change after creation). It parses the URL, requires HTTPS, resolves the host
// once, and refuses the URL when ANY resolved address is not public unicast (address-policy.ts):
// picking the good addresses out of a mixed answer would still let a partner aim at a private one
// whenever the good ones fail. The addresses it returns are the ones postWebhook must connect to,
// so the name is never resolved a second time (no DNS-rebinding window).
//
// Messages are safe to show to the partner and to store: they never contain a resolved address,
// which would turn the API into a probe of our internal DNS view. For the same reason a host name is
// refused in one way whatever went wrong (no address, a failed lookup, an address that is not
// public): telling "resolves to a private address" from "does not resolve" let any key with the
// webhooks scope list the names our resolver knows, hosts-file entries and service names included
// (outside try, session 23). Only an address written in the URL is refused as forbidden.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isAllowedAddress, parseAllowedCidrs } from './address-policy.js';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a host name to all its addresses. Injectable for tests; the default is the OS resolver. */
export type Resolver = (hostname: string) => Promise<readonly { address: string; family?: number }[]>;

/** dns.lookup, i.e. getaddrinfo: the same view (hosts file included) that a plain connect would use. */
export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

export type UrlPolicyCode =
  | 'WEBHOOK_URL_INVALID' // not an absolute URL, credentials, fragment, port 0, too long
  | 'WEBHOOK_URL_NOT_HTTPS'
  | 'WEBHOOK_URL_FORBIDDEN_ADDRESS' // the host is an address, and it is not public
  | 'WEBHOOK_URL_UNRESOLVABLE'; // the host name does not resolve to public addresses only (no address, a failed or timed-out lookup, or a non-public one)

/** The one refusal of a host name (see the top of this file). */
const NAME_REFUSED =
  'The host name of the URL does not resolve to public addresses only (it has no address, or one that is not publicly routable).';

export type UrlCheck = { ok: true; url: URL; addresses: readonly ResolvedAddress[] } | { ok: false; code: UrlPolicyCode; message: string };

export interface UrlPolicyOptions {
  /** WEBHOOK_ALLOWED_PRIVATE_CIDRS: the only way to let a non-public range through. */
  allowedPrivateCidrs?: readonly string[];
  resolver?: Resolver;
  /** Upper bound for the lookup; on expiry the check fails with WEBHOOK_URL_UNRESOLVABLE. Default 5000. */
  resolveTimeoutMs?: number;
}

export const MAX_WEBHOOK_URL_LENGTH = 2048;

const fail = (code: UrlPolicyCode, message: string): UrlCheck => ({ ok: false, code, message });

/**
 * Checks `input` against the webhook URL policy. On success `url` is the normalised URL (store
 * `url.href`, not the input) and `addresses` are the vetted addresses to connect to.
 */
export async function checkWebhookUrl(input: string, options: UrlPolicyOptions = {}): Promise<UrlCheck> {
  const { allowedPrivateCidrs = [], resolver = systemResolver, resolveTimeoutMs = 5000 } = options;
  const allowed = parseAllowedCidrs(allowedPrivateCidrs);

  const parsed = parseWebhookUrl(input);
  if (!parsed.ok) return parsed;
  const { url } = parsed;

  // WHATWG parsing has already turned 2130706433, 0x7f.1, 0177.0.0.1 and 127.1 into 127.0.0.1;
  // IPv6 literals keep their brackets in `hostname`, which hides them from net.isIP unless stripped.
  const host = hostOf(url);
  const literal = isIP(host);
  if (literal !== 0) {
    if (!isAllowedAddress(host, allowed)) {
      return fail('WEBHOOK_URL_FORBIDDEN_ADDRESS', 'The URL points to an address that is not publicly routable.');
    }
    return { ok: true, url, addresses: [{ address: host, family: literal === 4 ? 4 : 6 }] };
  }

  let answers: readonly { address: string }[];
  try {
    answers = await withTimeout(resolver(host), resolveTimeoutMs);
  } catch {
    return fail('WEBHOOK_URL_UNRESOLVABLE', NAME_REFUSED);
  }
  const addresses: ResolvedAddress[] = [];
  for (const { address } of answers) {
    const family = isIP(address);
    // Anything that is not a canonical IP literal counts as forbidden, not as "skip it".
    if (family === 0 || !isAllowedAddress(address, allowed)) return fail('WEBHOOK_URL_UNRESOLVABLE', NAME_REFUSED);
    if (!addresses.some((a) => a.address === address)) addresses.push({ address, family: family === 4 ? 4 : 6 });
  }
  if (addresses.length === 0) return fail('WEBHOOK_URL_UNRESOLVABLE', NAME_REFUSED);
  return { ok: true, url, addresses };
}

/** The synchronous part: shape and scheme, no DNS. */
export function parseWebhookUrl(input: string): { ok: true; url: URL } | { ok: false; code: UrlPolicyCode; message: string } {
  if (typeof input !== 'string' || input.length === 0 || input.length > MAX_WEBHOOK_URL_LENGTH) {
    return {
      ok: false,
      code: 'WEBHOOK_URL_INVALID',
      message: `The URL must be an absolute https:// URL of at most ${MAX_WEBHOOK_URL_LENGTH} characters.`,
    };
  }
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { ok: false, code: 'WEBHOOK_URL_INVALID', message: 'The URL is not a valid absolute URL.' };
  }
  if (url.protocol !== 'https:') return { ok: false, code: 'WEBHOOK_URL_NOT_HTTPS', message: 'The URL must use https://.' };
  // Credentials would be sent as Basic auth to whoever answers and end up in logs; a fragment is never
  // sent, so accepting one would make the stored URL differ from what is called.
  if (url.username !== '' || url.password !== '') {
    return { ok: false, code: 'WEBHOOK_URL_INVALID', message: 'The URL must not contain a user name or password.' };
  }
  if (url.href.includes('#')) return { ok: false, code: 'WEBHOOK_URL_INVALID', message: 'The URL must not contain a fragment (#).' };
  if (url.port === '0') return { ok: false, code: 'WEBHOOK_URL_INVALID', message: 'The URL must not use port 0.' };
  if (hostOf(url) === '') return { ok: false, code: 'WEBHOOK_URL_INVALID', message: 'The URL has no host.' };
  return { ok: true, url };
}

/** The host without IPv6 brackets, as net.isIP and a connect expect it. */
export function hostOf(url: URL): string {
  const h = url.hostname;
  return h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expiry = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('lookup timed out'), { code: 'ETIMEOUT' })), ms);
  });
  return Promise.race([promise, expiry]).finally(() => clearTimeout(timer));
}
