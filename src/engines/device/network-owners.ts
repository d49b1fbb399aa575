import type { NetworkOwner } from './asn-table.js';

/** What kind of network an address belongs to, as far as its owner tells. */
export type NetworkKind = 'vpn' | 'hosting' | 'other';

/**
 * Autonomous systems of cloud and hosting providers: a phone or a home browser does not browse from a data
 * centre, a VPN exit, proxy or automation farm does. Numbers from the providers' own registrations.
 */
const HOSTING_ASNS: ReadonlySet<number> = new Set([
  16509,
  14618, // Amazon
  8075, // Microsoft (Azure)
  15169,
  396982, // Google, Google Cloud
  14061, // DigitalOcean
  16276, // OVH
  24940, // Hetzner
  63949, // Akamai Connected Cloud (Linode)
  20473, // The Constant Company (Vultr)
  31898, // Oracle Cloud
  45102, // Alibaba Cloud
  132203, // Tencent Cloud
  12876, // Scaleway
  51167, // Contabo
  60781,
  28753, // Leaseweb
  9009, // M247
  60068, // Datacamp (CDN77)
  47583, // Hostinger
  8560, // IONOS
  13335, // Cloudflare (WARP and relay egress)
]);

const HOSTING_NAMES =
  /\b(amazon|google cloud|microsoft|digitalocean|ovh|hetzner|linode|vultr|choopa|constant company|oracle|alibaba|tencent|scaleway|contabo|leaseweb|m247|datacamp|hostinger|ionos|hosting|data ?cent(er|re)|colocation|servers?|cloud)\b/i;

/** Organisations that are consumer VPN services (their exits are registered under these names). */
const VPN_NAMES =
  /(mullvad|31173 services|proton ag|protonvpn|packethub|tefincom|nordvpn|private internet access|expressvpn|express vpn|surfshark|windscribe|ipvanish|cyberghost|hide\.me|eventure|purevpn|gz systems|anchorfree|hotspot shield|pango|torguard|vpnetworks|golden frog|vyprvpn|kape technologies|\bvpn\b)/i;

/**
 * Classifies the network of an address by its owner: a known consumer VPN service (`vpn`), a cloud or
 * hosting provider (`hosting`), or anything else (`other`). A heuristic over the shipped ASN data: the
 * customer's device policy can name further ASNs of either kind.
 *
 * @example
 * networkKind({ asn: 16509, organization: 'Amazon.com, Inc.' }); // 'hosting'
 * networkKind({ asn: 209103, organization: 'Proton AG' }); // 'vpn'
 */
export function networkKind(
  owner: NetworkOwner,
  extra: { readonly vpnAsns?: readonly number[]; readonly hostingAsns?: readonly number[] } = {},
): NetworkKind {
  if (extra.vpnAsns?.includes(owner.asn) === true || VPN_NAMES.test(owner.organization)) return 'vpn';
  if (extra.hostingAsns?.includes(owner.asn) === true || HOSTING_ASNS.has(owner.asn)) return 'hosting';
  return HOSTING_NAMES.test(owner.organization) ? 'hosting' : 'other';
}
