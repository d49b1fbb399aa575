import type { Name } from '@peculiar/asn1-x509';

const COUNTRY = '2.5.4.6';

/**
 * Whether two X.509 names are the same name, RFC 5280 §7.1 style: the same attribute types in the same
 * RDN order, values compared case-insensitively with white space collapsed (issuers re-encode names as
 * PrintableString or UTF8String between their CSCA and DS certificates).
 *
 * @example
 * sameName(ds.tbsCertificate.issuer, csca.tbsCertificate.subject); // true
 */
export function sameName(a: Name, b: Name): boolean {
  const left = canonicalName(a);
  const right = canonicalName(b);
  return left.length === right.length && left.every((rdn, i) => rdn === right[i]);
}

/**
 * The name as text for messages and listings: `C=UT, O=Utopia, CN=CSCA Utopia` in the certificate's order.
 *
 * @example
 * nameText(certificate.tbsCertificate.subject); // 'C=UT, CN=Document Signer 1'
 */
export function nameText(name: Name): string {
  return name
    .map((rdn) => rdn.map((attribute) => `${shortType(attribute.type)}=${attribute.value.toString()}`).join('+'))
    .join(', ');
}

/**
 * The name's country attribute (upper case), or null when it has none.
 *
 * @example
 * countryOfName(csca.tbsCertificate.subject); // 'UT'
 */
export function countryOfName(name: Name): string | null {
  for (const rdn of name) {
    for (const attribute of rdn) {
      if (attribute.type === COUNTRY) return attribute.value.toString().trim().toUpperCase();
    }
  }
  return null;
}

function canonicalName(name: Name): string[] {
  return name.map((rdn) =>
    rdn
      .map((attribute) => `${attribute.type}=${attribute.value.toString().trim().replace(/\s+/g, ' ').toLowerCase()}`)
      .sort()
      .join('+'),
  );
}

const SHORT_TYPES: Readonly<Record<string, string>> = {
  '2.5.4.3': 'CN',
  '2.5.4.5': 'SERIALNUMBER',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
};

function shortType(type: string): string {
  return SHORT_TYPES[type] ?? type;
}
