import ipaddr from 'ipaddr.js';

/**
 * Where taintwise may send webhooks (issue 15, "Safety"): pure rules, applied when a URL is registered
 * and again to every address the host resolves to when a delivery connects (DNS rebinding).
 *
 * - only `http:` and `https:` URLs, without credentials in them;
 * - link-local addresses (169.254.0.0/16, fe80::/10, where cloud metadata services live) and the
 *   AWS IPv6 metadata address fd00:ec2::254 are always refused, as are unspecified, broadcast,
 *   multicast and other special-purpose ranges (6to4, Teredo, NAT64… which can wrap any of those);
 * - private and loopback ranges (10/8, 172.16/12, 192.168/16, 100.64/10, 127/8, ::1, fc00::/7, fec0::/10)
 *   are refused unless `allowPrivate` (WEBHOOK_ALLOW_PRIVATE).
 * IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) are judged as the IPv4 address they carry.
 */

const METADATA_V6 = ipaddr.parse('fd00:ec2::254');
const ALWAYS_REFUSED: Record<string, string> = {
  linkLocal: 'a link-local address (cloud metadata services live there)',
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
};
const PRIVATE = new Set(['private', 'loopback', 'carrierGradeNat', 'uniqueLocal', 'deprecatedSiteLocal']);

/** Why an address may not receive webhooks, or undefined when it may. */
export function refusedAddress(address: string, allowPrivate: boolean): string | undefined {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return `${address} is not an IP address`;
  }
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  const text = ip.toString();
  if (ip.kind() === 'ipv6' && text === METADATA_V6.toString())
    return `${text} is the cloud metadata address: always refused`;
  const range = ip.range();
  if (range === 'unicast') return undefined;
  if (ALWAYS_REFUSED[range]) return `${text} is ${ALWAYS_REFUSED[range]}: always refused`;
  if (PRIVATE.has(range)) {
    return allowPrivate
      ? undefined
      : `${text} is a private or loopback address (${range}): refused unless WEBHOOK_ALLOW_PRIVATE=true`;
  }
  return `${text} is a special-purpose address (${range}): always refused`;
}

export type UrlVerdict = { url: URL; literalAddress?: string } | { reason: string };

/**
 * The URL's shape: absolute http(s), no credentials, a host; an IP-literal host is judged at once
 * (`refusedAddress`). A host name still has to be resolved (`refusedAddress` on each address).
 */
export function checkWebhookUrl(raw: string, allowPrivate: boolean): UrlVerdict {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { reason: 'not an absolute URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { reason: `only http and https URLs are accepted, not ${url.protocol.replace(/:$/, '')}` };
  if (url.username || url.password) return { reason: 'credentials in the URL are not accepted' };
  if (!url.hostname) return { reason: 'the URL has no host' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) {
    const reason = refusedAddress(host, allowPrivate);
    return reason ? { reason } : { url, literalAddress: host };
  }
  // Host names that are IP addresses in disguise (WHATWG URL normalises 0x7f.1, 2130706433 to dotted form
  // already); `localhost` never needs DNS to be loopback.
  if (/^localhost\.?$/i.test(host) || /\.localhost\.?$/i.test(host)) {
    return allowPrivate ? { url } : { reason: `${host} is a loopback name: refused unless WEBHOOK_ALLOW_PRIVATE=true` };
  }
  return { url };
}
