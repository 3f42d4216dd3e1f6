// Which IP addresses a webhook may be sent to: public unicast only. A webhook URL is chosen by the
// partner, so without this check our dispatcher could be pointed at our own loopback services, the
// private network, or a cloud metadata endpoint (SSRF).
//
// IPv4: everything is public except the blocked ranges below (IANA special-purpose registry plus
// multicast and class E). IPv6: only global unicast 2000::/3 can be public, minus the special blocks
// inside it; everything outside 2000::/3 is refused (::, ::1, fc00::/7, fe80::/10, fec0::/10,
// multicast, the IPv4-compatible ::/96, SIIT, discard, segment routing, ...), with two exceptions that
// carry an IPv4 address and take that address's verdict: IPv4-mapped ::ffff:0:0/96 and the
// well-known NAT64 prefix 64:ff9b::/96. 6to4 (2002::/16) also takes its embedded address's verdict.
// Teredo (2001::/32) and the local-use NAT64 prefix 64:ff9b:1::/48 are refused outright: Teredo
// tunnels through a relay we do not control and obfuscates the client address, and the local-use
// prefix is by definition a site's internal translator.
//
// `allowedPrivateCidrs` (WEBHOOK_ALLOWED_PRIVATE_CIDRS) is the only relaxation: an address inside one
// of those ranges is accepted whatever it is. For addresses that embed an IPv4 address (mapped,
// NAT64, 6to4) the embedded address is checked against the list too, so allowing 127.0.0.0/8 also
// allows ::ffff:127.0.0.1, consistently.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Cidr = [Address, number];

/**
 * Parses a canonical IP literal. ipaddr.js alone is not trusted with IPv6 text: it reads
 * `::8.8.8.8` (IPv4-compatible, ::808:808 on the wire) as the mapped ::ffff:8.8.8.8, and a policy
 * that sees a different address than the socket connects to is a bypass. IPv6 text therefore goes
 * through the WHATWG URL host parser first, whose serialisation is pure hex, the same as Node's.
 */
function parseAddress(text: string): Address | undefined {
  const family = text.includes('%') ? 0 : isIP(text);
  if (family === 4) return ipaddr.IPv4.parse(text);
  if (family === 6) return ipaddr.IPv6.parse(new URL(`https://[${text}]/`).hostname.slice(1, -1));
  return undefined;
}

function cidr(text: string): Cidr {
  const [addr, bits, extra] = text.split('/');
  const parsed = addr === undefined ? undefined : parseAddress(addr);
  const n = Number(bits);
  if (parsed === undefined || extra !== undefined || !/^\d{1,3}$/.test(bits ?? '') || n > (parsed.kind() === 'ipv4' ? 32 : 128)) {
    throw new TypeError(`not a CIDR range: "${text}"`);
  }
  return [parsed, n];
}

const BLOCKED_V4: readonly Cidr[] = [
  '0.0.0.0/8', // "this network"; connecting to 0.0.0.0 reaches local listeners on Linux
  '10.0.0.0/8', // RFC 1918
  '100.64.0.0/10', // shared address space (carrier-grade NAT); Alibaba's metadata service lives here
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local, including the 169.254.169.254 metadata endpoint
  '172.16.0.0/12', // RFC 1918
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // TEST-NET-1 (documentation)
  '192.88.99.0/24', // deprecated 6to4 relay anycast
  '192.168.0.0/16', // RFC 1918
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // TEST-NET-2
  '203.0.113.0/24', // TEST-NET-3
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved (class E), including 255.255.255.255 broadcast
].map(cidr);

const GLOBAL_UNICAST_V6 = cidr('2000::/3');
const BLOCKED_INSIDE_GLOBAL_V6: readonly Cidr[] = [
  '2001::/23', // IETF protocol assignments: Teredo 2001::/32, benchmarking, ORCHID, ...
  '2001:db8::/32', // documentation
  '3fff::/20', // documentation (RFC 9637)
].map(cidr);
const IPV4_MAPPED = cidr('::ffff:0:0/96');
const NAT64_WELL_KNOWN = cidr('64:ff9b::/96');
const SIX_TO_FOUR = cidr('2002::/16');

/** Parsed allow-list; build it once per check with `parseAllowedCidrs`. */
export type AllowedCidrs = readonly Cidr[];

/** Throws on an invalid CIDR (the config loader has already validated WEBHOOK_ALLOWED_PRIVATE_CIDRS). */
export function parseAllowedCidrs(cidrs: readonly string[]): AllowedCidrs {
  return cidrs.map(cidr);
}

/**
 * True when a webhook may be sent to `address`, a canonical IP literal as the resolver returns it
 * (no brackets, no zone id). Anything else is refused: ipaddr.js would read `0177.0.0.1` as octal
 * while other layers might not, so only the unambiguous spellings Node's net.isIP accepts get through.
 */
export function isAllowedAddress(address: string, allowed: AllowedCidrs = []): boolean {
  const parsed = parseAddress(address);
  return parsed !== undefined && verdict(parsed, allowed);
}

function verdict(addr: Address, allowed: AllowedCidrs): boolean {
  if (inAny(addr, allowed)) return true;
  if (addr.kind() === 'ipv4') return !inAny(addr, BLOCKED_V4);
  const v6 = addr as ipaddr.IPv6;
  const embedded = embeddedIPv4(v6);
  if (embedded !== undefined) return verdict(embedded, allowed);
  return v6.match(GLOBAL_UNICAST_V6) && !inAny(v6, BLOCKED_INSIDE_GLOBAL_V6);
}

/** The IPv4 address an IPv6 address stands for, for the forms judged by that address. */
function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = v6.parts;
  const v4 = (hi: number, lo: number): ipaddr.IPv4 => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  if (v6.match(IPV4_MAPPED) || v6.match(NAT64_WELL_KNOWN)) return v4(p[6] ?? 0, p[7] ?? 0);
  if (v6.match(SIX_TO_FOUR)) return v4(p[1] ?? 0, p[2] ?? 0); // 2002:AABB:CCDD::/48
  return undefined;
}

function inAny(addr: Address, ranges: readonly Cidr[]): boolean {
  // ipaddr's match throws when the kinds differ, so compare only like with like.
  return ranges.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits));
}
